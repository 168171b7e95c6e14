#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: list every
# set-id program (skipping /proc and /sys), ask dpkg which ones the distribution installed, and
# (Debian 12 still records /bin paths for programs that live in /usr/bin), and take the bits away from the one nobody installed that way, keeping the program.
set -uo pipefail
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
find / \( -path /proc -o -path /sys \) -prune -o -type f -perm /6000 -print 2>/dev/null
answer=""
for f in $(unowned_setid); do
  ls -l "$f"
  chmod u-s,g-s "$f"
  ls -l "$f"
  answer+="$f "
done
[ -n "$answer" ] || { echo "no unexpected set-id program found"; exit 1; }
echo "ANSWER: ${answer% } was set-id (installed that way by hand, not by a package); I removed the bit and kept the program."
