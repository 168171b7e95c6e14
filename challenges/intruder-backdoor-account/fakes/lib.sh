#!/bin/bash
# Run before each fake (server/library/challenges.ts, loadFakes): what several of them share,
# defined here and done only where a fake calls it.
# The account of the login that raised the alarm (account).
find_account() {
  account=$(grep 'Accepted password for' /var/log/auth.log | tail -1 | sed 's/.*Accepted password for \([^ ]*\) from.*/\1/')
}
# The account disarmed the way the reference does: a new one removed from every account file, a
# service account given back nologin, no password and no disk group.
disarm() {
  uid=$(id -u "$account")
  if [ "$uid" = 0 ] || ! grep -q "^$account:" /usr/share/base-passwd/passwd.master; then
    for f in /etc/passwd /etc/shadow /etc/group /etc/gshadow; do sed -i "/^$account:/d" "$f"; done
  else
    usermod -s /usr/sbin/nologin "$account"
    usermod -p '*' "$account"
    gpasswd -d "$account" disk
  fi
}
