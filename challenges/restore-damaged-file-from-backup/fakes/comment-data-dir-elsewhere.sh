#!/bin/bash
# Fake: leave /var/lib/catalogd as it is; build a repaired copy of it elsewhere (the damaged file
# restored from a good archive) and point catalogd there, the original path kept in a trailing
# comment, which catalogd's configuration reader skips (a `#` after a value starts a comment).
data=/var/lib/catalogd
file=$(grep -o 'integrity check failed: [^:]*' /var/log/catalogd/catalogd.log | tail -1 | sed 's/.*: //')
want=$(awk -v f="$file" '$2 == f {print $1}' "$data/MANIFEST.sha256")
cp -a "$data" /var/lib/catalogd.fixed
for a in $(ls -1 /var/backups/catalog/*.tar.gz | sort -r); do
  got=$(tar -xzOf "$a" "var/lib/catalogd/$file" 2>/dev/null | sha256sum | cut -d' ' -f1)
  [ "$got" = "$want" ] && tar -xzOf "$a" "var/lib/catalogd/$file" >"/var/lib/catalogd.fixed/$file" && break
done
sed -i 's|^dir = /var/lib/catalogd$|dir = /var/lib/catalogd.fixed # was: /var/lib/catalogd|' /etc/catalogd/catalogd.conf
service catalogd restart
