#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: read why
# catalogd refuses to start, find the file and the digest its manifest expects, look through the
# backup archives from the newest for a copy of that file with that digest (a truncated archive
# or a copy already damaged does not have it), restore only that file, and start catalogd.
set -uo pipefail
data=/var/lib/catalogd
service catalogd start
tail -n 3 /var/log/catalogd/catalogd.log
file=$(grep -o 'integrity check failed: [^:]*' /var/log/catalogd/catalogd.log | tail -1 | sed 's/.*: //')
[ -n "$file" ] || { echo "no integrity failure in the log"; exit 1; }
want=$(awk -v f="$file" '$2 == f || $2 == "*" f {print $1}' "$data/MANIFEST.sha256")
echo "damaged: $file, manifest expects $want"
ls -l /var/backups/catalog/
found=""
for a in $(ls -1 /var/backups/catalog/*.tar.gz | sort -r); do
  got=$(tar -xzOf "$a" "var/lib/catalogd/$file" 2>/dev/null | sha256sum | cut -d' ' -f1)
  echo "$a: $got"
  if [ "$got" = "$want" ]; then found=$a; break; fi
done
[ -n "$found" ] || { echo "no archive holds the good copy of $file"; exit 1; }
tar -xzOf "$found" "var/lib/catalogd/$file" >"$data/$file.restored"
chown catalog:catalog "$data/$file.restored"; chmod 0640 "$data/$file.restored"
mv "$data/$file.restored" "$data/$file"
service catalogd start || exit 1
curl -s http://127.0.0.1:8080/v1/status
echo "ANSWER: $file was damaged (it no longer matched MANIFEST.sha256); I restored only that file from ${found##*/}, the newest archive holding the copy the manifest records, and left the other files as they were."
