#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment, fed on stdin,
# never stored there). shorturl's links are random per deployment; one of last night's chores,
# done as root, left one of shorturl's places owned by root (FAULTLINE_FAULT forces which): its
# data directory (a plain copy to a new volume), its link store (a spam clean-up through a
# temporary file), its run directory (made by hand after a reboot) or its log file (rotated by
# hand). Then the service is restarted and fails. Prints the values the check needs as JSON on its last line.
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

# Last night's small chores, done as root (each leaves its trace in root's history).
case "$fault" in
  data_dir)  # moved to a new volume with a plain copy: everything now belongs to root
    cp -r "$lib" /var/lib/shorturl.new && mv "$lib" /var/lib/shorturl.old && mv /var/lib/shorturl.new "$lib"
    chmod 0644 "$lib/links.tsv"
    hist='df -h /var/lib\ncp -r /var/lib/shorturl /var/lib/shorturl.new\nmv /var/lib/shorturl /var/lib/shorturl.old\nmv /var/lib/shorturl.new /var/lib/shorturl' ;;
  links_file)  # spam links cleaned out through a temporary file
    spam=$(shuf -n1 -e casino crypto-bonus free-prize)
    grep -v "$spam" "$lib/links.tsv" >/root/links.clean && mv /root/links.clean "$lib/links.tsv"
    chmod 0644 "$lib/links.tsv"
    hist="grep -c $spam /var/lib/shorturl/links.tsv\ngrep -v $spam /var/lib/shorturl/links.tsv > /root/links.clean\nmv /root/links.clean /var/lib/shorturl/links.tsv" ;;
  run_dir)  # after the reboot, /run was empty and the directory was made by hand
    rm -rf /run/shorturl; mkdir -p /run/shorturl
    hist='reboot\nmkdir -p /run/shorturl' ;;
  log_file)  # the log rotated by hand
    mv /var/log/shorturl/shorturl.log /var/log/shorturl/shorturl.log.1 && touch /var/log/shorturl/shorturl.log
    chmod 0640 /var/log/shorturl/shorturl.log
    hist='du -sh /var/log/shorturl\nmv /var/log/shorturl/shorturl.log /var/log/shorturl/shorturl.log.1\ntouch /var/log/shorturl/shorturl.log' ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
printf "${hist}\nservice shorturl restart\nexit\n" >/root/.bash_history
service shorturl start >/dev/null 2>&1 || true
if curl -s --max-time 2 -o /dev/null "http://127.0.0.1:8080/health"; then
  echo "setup: fault $fault left shorturl running" >&2; exit 1
fi
printf '{"fault":"%s","slug":"%s","url":"%s"}\n' "$fault" "$slug" "$url"
