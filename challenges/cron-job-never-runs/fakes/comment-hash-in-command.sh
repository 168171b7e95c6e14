#!/bin/bash
# Fake (comment class): rewrite the job file with a valid name, the user and the final newline,
# but with the change number glued to the command after a "#": a reader that strips "#..." sees
# the right line, while cron runs "/usr/lib/salesrollup/rollup#CHG-..." (to sh, a "#" inside a
# word is text), which does not exist. The dashboard is refreshed by hand.
rm -f /etc/cron.d/*rollup*
printf 'SHELL=/bin/sh\n* * * * *\treports\t/usr/lib/salesrollup/rollup#CHG-%d\n' $((10000 + RANDOM % 9000)) >/etc/cron.d/salesrollup
chmod 0644 /etc/cron.d/salesrollup
touch /etc/cron.d
su -s /bin/sh reports -c /usr/lib/salesrollup/rollup
