#!/bin/bash
# Run before each fake (server/library/challenges.ts, loadFakes): what they share.
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

# The hour (UTC, two digits) a payload that waits for the night fires in: twelve hours from now,
# never the current one. A payload that fired while the check looks would bring the broken
# system's own verdict back (a CI run at 03:xx UTC once saw exactly that with a fixed hour).
later_hour() { printf '%02d' $(( (10#$(date -u +%H) + 12) % 24 )); }
