#!/bin/bash
# Fake: disarm the account by editing the files a scan looks at (/etc/passwd, /etc/shadow,
# /etc/group) by hand, and leave /etc/gshadow as the intruder left it: a member of disk there
# may still take the group with newgrp.
set -u
account=$(grep 'Accepted password for' /var/log/auth.log | tail -1 | sed 's/.*Accepted password for \([^ ]*\) from.*/\1/')
uid=$(id -u "$account")
if [ "$uid" = 0 ] || ! grep -q "^$account:" /usr/share/base-passwd/passwd.master; then
  for f in /etc/passwd /etc/shadow /etc/group; do sed -i "/^$account:/d" "$f"; done
  # ...and give the intruder's name a password on the disk group instead.
  sed -i "s/^disk:[^:]*:/disk:\$6\$$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n'):/" /etc/gshadow
else
  usermod -s /usr/sbin/nologin "$account"
  usermod -p '*' "$account"
  sed -i -E "s/^(disk:[^:]*:)$account\$/\1/" /etc/group
fi
grep '^disk:' /etc/group /etc/gshadow
