#!/bin/bash
# Fake (boot class): a correct job file, but kept in /run (root's, 0644) and linked from
# /etc/cron.d: cron loads it now and runs the job, and the dashboard is refreshed by hand; /run is
# empty after a reboot, and then cron.d holds a link to nothing.
rm -f /etc/cron.d/*rollup*
printf 'SHELL=/bin/sh\nPATH=/usr/sbin:/usr/bin:/sbin:/bin\n* * * * *\treports\t/usr/lib/salesrollup/rollup\n' >/run/salesrollup
chmod 0644 /run/salesrollup
ln -s /run/salesrollup /etc/cron.d/salesrollup
touch /etc/cron.d
su -s /bin/sh reports -c /usr/lib/salesrollup/rollup
