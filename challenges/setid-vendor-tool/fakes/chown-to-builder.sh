#!/bin/bash
# Fake: "hand the tool over to the build account" instead of editing its mode: chown builder:builder
# (which clears the set-id bits, as chown does). No set-id program is left and everybody can still
# run every tool, but builder now owns a program that the backup jobs run as root: it can rewrite
# it (or give it a set-id bit of its own) and have root run whatever it likes.
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
for f in $(unowned_setid); do chown builder:builder "$f"; ls -l "$f"; done
