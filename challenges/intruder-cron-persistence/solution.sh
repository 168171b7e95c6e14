#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would, and in the
# order that keeps the intruder from coming back while cleaning: find the root job that other
# users can write and what was added to it (an encoded payload: decode it to see what it does),
# remove the payload and close the permissions; then remove what the payload created: the uid-0
# account and the set-user-ID shell.
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
awk -F: '$3 == 0' /etc/passwd
answer_job="" payload=""
for script in $(awk '$6 == "root" {print $7}' /etc/crontab /etc/cron.d/*); do
  case "$script" in /*) ;; *) continue ;; esac
  [ -f "$script" ] || continue
  p=$script
  while [ "$p" != / ]; do
    if [ "$(stat -c %u "$p")" != 0 ] || [ -n "$(find "$p" -maxdepth 0 -perm /022)" ]; then
      ls -ld "$p"; chown root:root "$p"; chmod go-w "$p"; answer_job=$script
    fi
    p=$(dirname "$p")
  done
  if grep -q 'base64 -d' "$script"; then
    payload=$(grep 'base64 -d | bash' "$script")
    echo "payload in $script:"
    grep -o 'echo [A-Za-z0-9+/=]* | base64 -d' "$script" | awk '{print $2}' | base64 -d; echo
    sed -i '/base64 -d | bash/d; /^# refresh package cache$/d' "$script"
    answer_job=$script
  fi
done
[ -n "$answer_job" ] || { echo "no hijacked root job found"; exit 1; }

account=$(awk -F: '$3 == 0 && $1 != "root" {print $1}' /etc/passwd | head -1)
[ -n "$account" ] || { echo "no second uid-0 account"; exit 1; }
for f in /etc/passwd /etc/shadow /etc/group /etc/gshadow; do sed -i "/^$account:/d" "$f"; done
for f in $(unowned_setid); do ls -l "$f"; rm -f "$f"; done
echo "ANSWER: The intruder wrote to the root cron job $answer_job (writable by other users) and used it to keep the uid-0 account $account and a set-user-ID copy of bash; all removed, the job is root's alone again."
