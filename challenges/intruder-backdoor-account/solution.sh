#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: read the
# login that raised the alarm, look the account up, then take away what makes it a way in. A new
# account is removed; a service account that was given a shell, a password and a group is put
# back to what service accounts have (nologin, no password, no extra group).
set -uo pipefail
grep -i 'accepted password' /var/log/auth.log
account=$(grep 'Accepted password for' /var/log/auth.log | tail -1 | sed 's/.*Accepted password for \([^ ]*\) from.*/\1/')
[ -n "$account" ] || { echo "no password login found"; exit 1; }
getent passwd "$account"; id "$account"
awk -F: '$3 == 0' /etc/passwd

uid=$(id -u "$account")
if [ "$uid" = 0 ] || [ "$uid" -ge 1000 ] || ! grep -q "^$account:" /usr/share/base-passwd/passwd.master; then
  # An account the host never had: remove it everywhere (userdel refuses uid 0 while root is
  # logged in, so the lines go by hand).
  for f in /etc/passwd /etc/shadow /etc/group /etc/gshadow; do sed -i "/^$account:/d" "$f"; done
else
  usermod -s /usr/sbin/nologin "$account"
  usermod -p '*' "$account"
  for g in $(id -nG "$account"); do
    [ "$g" = "$(id -gn "$account")" ] || gpasswd -d "$account" "$g"
  done
fi
awk -F: '$3 == 0' /etc/passwd
echo "ANSWER: The intruder logged in with the account $account, which I removed or disarmed."
