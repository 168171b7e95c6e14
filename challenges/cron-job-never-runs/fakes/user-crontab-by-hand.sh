#!/bin/bash
# Fake: leave the broken file in /etc/cron.d, write a crontab for reports by hand (root-owned,
# which cron would not trust) and refresh the rollup by hand so the dashboard looks current.
printf '* * * * * /usr/lib/salesrollup/rollup\n' >/var/spool/cron/crontabs/reports
su -s /bin/sh reports -c /usr/lib/salesrollup/rollup
