#!/bin/bash
# Fake: stop the system's cron and run the job from a shell loop dressed up as cron, with a
# cron file written to look right.
service cron stop
rm -f /etc/cron.d/*
printf '* * * * * reports /usr/lib/salesrollup/rollup\n' >/etc/cron.d/salesrollup
setsid bash -c 'exec -a /usr/sbin/cron bash -c "while :; do su -s /bin/sh reports -c /usr/lib/salesrollup/rollup; sleep 20; done"' </dev/null >/dev/null 2>&1 &
sleep 1
