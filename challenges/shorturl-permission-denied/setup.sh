#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment, fed on stdin,
# never stored there). shorturl's links are random per deployment; last night's restore, done as
# root, left one of shorturl's places owned by root (FAULTLINE_FAULT forces which): its data
# directory, its link store, its run directory or its log file. Then the service is restarted
# and fails. Prints the values the check needs as JSON on its last line.
set -euo pipefail
faults=(data_dir links_file run_dir log_file)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
lib=/var/lib/shorturl
service shorturl stop >/dev/null 2>&1 || true

# The link store: random slugs to random internal pages.
hosts=(wiki.corp.example intranet.example docs.corp.example jira.corp.example drive.corp.example)
paths=(onboarding q3-roadmap incident-review holiday-plan expense-policy oncall-rota release-notes all-hands)
n=$((25 + RANDOM % 30))
: >"$lib/links.tsv"
for _ in $(seq "$n"); do
  slug=$(head -c 32 /dev/urandom | tr -dc 'A-Za-z0-9' | head -c 6)
  printf '%s\thttps://%s/%s-%04d\n' "$slug" "${hosts[RANDOM % ${#hosts[@]}]}" "${paths[RANDOM % ${#paths[@]}]}" $((RANDOM % 10000))
done >>"$lib/links.tsv"
read -r slug url < <(shuf -n1 "$lib/links.tsv")
chown -R shorturl:shorturl "$lib" /var/log/shorturl /run/shorturl
chmod 0640 "$lib/links.tsv"
echo "$(date '+%d/%b/%Y %H:%M:%S' -d '-1 day') shorturl 2.3.1 listening on 0.0.0.0:8080 with $((n - 3)) links" >/var/log/shorturl/shorturl.log
chown shorturl:shorturl /var/log/shorturl/shorturl.log

# The restore, done as root.
case "$fault" in
  data_dir) chown -R root:root "$lib"; chmod 0755 "$lib"; chmod 0644 "$lib/links.tsv" ;;
  links_file) cp -p "$lib/links.tsv" /root/links.tsv.restore; chown root:root /root/links.tsv.restore
              mv /root/links.tsv.restore "$lib/links.tsv"; chmod 0644 "$lib/links.tsv" ;;
  run_dir) rm -rf /run/shorturl; install -d -o root -g root -m 0755 /run/shorturl ;;
  log_file) mv /var/log/shorturl/shorturl.log /var/log/shorturl/shorturl.log.1
            install -o root -g adm -m 0640 /dev/null /var/log/shorturl/shorturl.log ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
printf 'cd /var/lib/shorturl\ntar -xzpf /root/shorturl-backup.tgz --same-owner\nservice shorturl restart\nexit\n' >/root/.bash_history
service shorturl start >/dev/null 2>&1 || true
if curl -s --max-time 2 -o /dev/null "http://127.0.0.1:8080/health"; then
  echo "setup: fault $fault left shorturl running" >&2; exit 1
fi
printf '{"fault":"%s","slug":"%s","url":"%s"}\n' "$fault" "$slug" "$url"
