#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: list every
# set-id program (skipping /proc and /sys), ask dpkg which ones the distribution installed, and
# (Debian 12 still records /bin paths for programs that live in /usr/bin), and take the bits away from the one nobody installed that way, keeping the program.
set -uo pipefail
found=$(find / \( -path /proc -o -path /sys \) -prune -o -type f -perm /6000 -print 2>/dev/null)
echo "$found"
answer=""
for f in $found; do
  if { dpkg -S "$f" || dpkg -S "${f#/usr}"; } >/dev/null 2>&1; then continue; fi
  ls -l "$f"
  chmod u-s,g-s "$f"
  ls -l "$f"
  answer+="$f "
done
[ -n "$answer" ] || { echo "no unexpected set-id program found"; exit 1; }
echo "ANSWER: ${answer% } was set-id (installed that way by hand, not by a package); I removed the bit and kept the program."
