#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): the
# jobs get this deployment's secrets, cron starts, and one root job at random becomes something
# an unprivileged user can rewrite: its script (writable by everyone or owned by `deploy`), the
# directory holding it, or the configuration file it sources (FAULTLINE_FAULT forces the kind).
# Prints the values the check and the answer need as JSON on its last line.
set -euo pipefail
faults=(writable_script writable_directory user_owned_script writable_sourced_file)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
rnd() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }
scripts=(/opt/reports/bin/daily-report.sh /usr/local/sbin/tmp-cleanup /srv/metrics/collect.sh /var/lib/dbbackup/run-backup.sh)
sourced=(/opt/reports/etc/report.env /usr/local/etc/cleanup.conf /srv/metrics/collect.conf /etc/dbbackup/backup.conf)

sed -i "s/^REPORT_TOKEN=.*/REPORT_TOKEN=$(rnd 16)/" /opt/reports/etc/report.env
sed -i "s/^BACKUP_KEY=.*/BACKUP_KEY=$(rnd 24)/" /etc/dbbackup/backup.conf
sed -i "s/^METRICS_HOST=.*/METRICS_HOST=jobs01-$(rnd 3)/" /srv/metrics/collect.conf
digest=$(cat "${scripts[@]}" "${sourced[@]}" | sha256sum | cut -d' ' -f1)

i=$((RANDOM % ${#scripts[@]}))
job=${scripts[i]}
case "$fault" in
  writable_script) file=$job; chmod "$(shuf -n1 -e 0777 0757 0766)" "$file" ;;
  writable_directory)
    file=${job%/*}
    if [ $((RANDOM % 2)) = 0 ]; then chmod 0777 "$file"; else chown deploy:deploy "$file"; fi ;;
  user_owned_script) file=$job; chown deploy:deploy "$file" ;;
  writable_sourced_file)
    file=${sourced[i]}
    if [ $((RANDOM % 2)) = 0 ]; then chmod 0666 "$file"; else chown deploy:deploy "$file"; fi ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
service cron start >/dev/null
# Every file a report could name: the jobs' scripts and their settings.
candidates=$(printf '"%s",' "${scripts[@]}" "${sourced[@]}")
printf '{"fault":"%s","job":"%s","file":"%s","digest":"%s","candidates":[%s]}\n' "$fault" "$job" "$file" "$digest" "${candidates%,}"
