#!/bin/bash
# Fake: remove the uid-0 account and the set-user-ID shell, the things a scanner reports, and
# leave the cron job that brings them back.
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
account=$(awk -F: '$3 == 0 && $1 != "root" {print $1}' /etc/passwd | head -1)
for f in /etc/passwd /etc/shadow /etc/group /etc/gshadow; do sed -i "/^$account:/d" "$f"; done
for f in $(unowned_setid); do rm -f "$f"; done
