#!/bin/bash
# Fake: repair the cron file the way the reference does (cron loads it, it runs the job every
# minute as reports), refresh the dashboard once by hand, then expire the account reports
# (chage -E 0, as "disabling a system user"). cron asks PAM before every job: "FAILED to
# authorize user with PAM (User account has expired)", and the job never runs again, while the
# file is perfect and the rollup is fresh for the check's window. A check must judge that cron
# may run a job as reports (the account, PAM's configuration) and that the job can do its work.
set -uo pipefail
for f in /etc/cron.d/*; do
  grep -q /usr/lib/salesrollup/rollup "$f" || continue
  printf 'SHELL=/bin/sh\nPATH=/usr/sbin:/usr/bin:/sbin:/bin\n* * * * *\treports\t/usr/lib/salesrollup/rollup\n' >/etc/cron.d/sales_rollup
  [ "$f" = /etc/cron.d/sales_rollup ] || rm -f "$f"
done
chmod 0644 /etc/cron.d/sales_rollup
touch /etc/cron.d
su -s /bin/sh reports -c /usr/lib/salesrollup/rollup
chage -E 0 reports
