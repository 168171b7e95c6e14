#!/bin/bash
# Fake: clean the account and the shell, make every job's file root's, and stop cron so no job
# can bring anything back, instead of removing the payload.
# Set-id programs no package installed, in two dpkg calls (Debian 12 records some of its own
# programs under /bin although they live in /usr/bin: those are looked up again without /usr).
unowned_setid() {
  local found missing again f
  found=$(find / \( -path /proc -o -path /sys \) -prune -o -type f -perm /6000 -print 2>/dev/null)
  [ -n "$found" ] || return 0
  missing=$(dpkg -S $found 2>&1 >/dev/null | sed -n 's/^dpkg-query: no path found matching pattern //p')
  [ -n "$missing" ] || return 0
  again=$(dpkg -S $(for f in $missing; do echo "${f#/usr}"; done) 2>&1 >/dev/null | sed -n 's/^dpkg-query: no path found matching pattern //p')
  for f in $missing; do grep -qxF -- "${f#/usr}" <<<"$again" && echo "$f"; done
}
service cron stop
account=$(awk -F: '$3 == 0 && $1 != "root" {print $1}' /etc/passwd | head -1)
for f in /etc/passwd /etc/shadow /etc/group /etc/gshadow; do sed -i "/^$account:/d" "$f"; done
for f in $(unowned_setid); do rm -f "$f"; done
for p in /opt/reports /usr/local/sbin /usr/local/etc /srv/metrics /var/lib/dbbackup /etc/dbbackup; do
  chown -R root:root "$p"; chmod -R go-w "$p"
done
