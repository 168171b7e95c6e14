#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment, fed on stdin,
# never stored there). The sales dashboard's rollup job should run every minute from
# /etc/cron.d as the user reports; today's orders (random) are in /var/lib/salesrollup/orders.
# The job file, as shipped by last week's config change, is broken one of four ways
# (FAULTLINE_FAULT forces which): no newline at its end, a file name cron ignores (a dot in it),
# a line written in the user-crontab format (no user field), or a user that does not exist.
# The file's name is random. rsyslog and cron are started; the old rollup stays stale.
# Prints the values the check needs as JSON on its last line.
set -euo pipefail
faults=(no_newline dotted_name no_user_field unknown_user)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
dir=/var/lib/salesrollup
service cron stop >/dev/null 2>&1 || true
rm -f /etc/cron.d/*rollup* "$dir"/orders/*.csv

# Today's orders: a few files from the shop's exporters, random amounts.
files=$((3 + RANDOM % 4))
for i in $(seq "$files"); do
  for _ in $(seq $((20 + RANDOM % 40))); do
    printf 'ORD-%06d,CUST-%05d,%d\n' $((RANDOM * 7 + RANDOM)) $((RANDOM % 90000 + 10000)) $((199 + RANDOM % 25000))
  done >"$dir/orders/export-$i.csv"
done
total=$(cat "$dir"/orders/*.csv | awk -F, '{s += $3} END {print s}')
# The last rollup anyone saw: hours ago, with a smaller total.
old=$(($(date +%s) - 3600 * (2 + RANDOM % 6) - RANDOM % 3600))
printf '{"generated": %s, "orders": %s, "total_cents": %s}\n' "$old" $((RANDOM % 40)) $((total / (2 + RANDOM % 3))) >"$dir/rollup.json"
chown -R reports:reports "$dir"

name=$(shuf -n1 -e sales-rollup salesrollup dashboard-rollup rollup-sales)
user=reports
case "$fault" in
  dotted_name) file=/etc/cron.d/$name$(shuf -n1 -e .cron .conf .job) ;;
  *) file=/etc/cron.d/$name ;;
esac
case "$fault" in
  unknown_user) user=$(shuf -n1 -e report reporting report-svc salesreports rollup) ;;
esac
{
  printf '# Sales dashboard: refresh the rollup every minute (CHG-%d).\n' $((10000 + RANDOM % 9000))
  printf 'SHELL=/bin/sh\nPATH=/usr/sbin:/usr/bin:/sbin:/bin\n\n'
  if [ "$fault" = no_user_field ]; then
    printf '* * * * *\t/usr/lib/salesrollup/rollup'
  else
    printf '* * * * *\t%s\t/usr/lib/salesrollup/rollup' "$user"
  fi
  [ "$fault" = no_newline ] || printf '\n'
} >"$file"
chmod 0644 "$file"
service rsyslog start >/dev/null 2>&1 || true
service cron start >/dev/null
printf 'cd /etc/cron.d\nvi %s\nservice cron reload\nexit\n' "$(basename "$file")" >/root/.bash_history
printf '{"fault":"%s","total":"%s"}\n' "$fault" "$total"
