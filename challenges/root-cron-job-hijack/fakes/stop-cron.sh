#!/bin/bash
# Fake: make every file the jobs touch root's, the blunt way, and stop cron so nothing runs.
for p in /opt/reports /usr/local/sbin /usr/local/etc /srv/metrics /var/lib/dbbackup /etc/dbbackup; do
  chown -R root:root "$p"; chmod -R go-w "$p"
done
service cron stop
