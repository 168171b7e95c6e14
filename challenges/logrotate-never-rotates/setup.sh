#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): picks
# pricefeed's log file, writes weeks of its log (random size and content, a random marker on its
# first line), a logrotate configuration broken in one of several ways (FAULTLINE_FAULT forces
# one) and logrotate's state as the nightly runs left it, and starts pricefeed. Prints the
# check's values as JSON on its last line.
set -euo pipefail
faults=(bad_size_unit missing_endscript path_mismatch no_reopen)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
service pricefeed stop >/dev/null 2>&1 || true
dir=/var/log/pricefeed
mkdir -p "$dir" /var/lib/logrotate
rm -f "$dir"/*
names=(pricefeed.log ticks.log feed.log publisher.log)
name=${names[RANDOM % ${#names[@]}]}
log=$dir/$name
marker=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
echo "LOG_FILE=$log" >/etc/default/pricefeed
sed -i '1i # pricefeed: where it writes its log (logrotate rotates it: /etc/logrotate.d/pricefeed).' /etc/default/pricefeed

# Three weeks of ticks: the log has never been rotated since the move to this host.
days=$((18 + RANDOM % 8))
start=$(($(date +%s) - days * 86400))
awk -v start="$start" -v n=$((40000 + RANDOM % 15000)) -v span=$((days * 86400)) -v marker="$marker" -v seed="$RANDOM" 'BEGIN {
  srand(seed); split("ACME GLOBX INITech UMBRL WAYNE STARK OSCRP CYBDN", s, " ")
  print strftime("%Y-%m-%dT%H:%M:%S+0000", start, 1) " pricefeed[412]: starting, logging to " ENVIRON["LOG"] " (boot " marker ")"
  for (i = 1; i <= n; i++) printf "%s tick %s %d.%02d\n", strftime("%Y-%m-%dT%H:%M:%S+0000", start + int(i * span / n), 1), s[1 + int(rand() * 8)], 10 + int(rand() * 990), int(rand() * 100)
}' LOG="$log" >"$log"
chown pricefeed:pricefeed "$log"; chmod 0640 "$log"

size=$(shuf -n1 -e 20M 50M 100M)
reopen='    postrotate
        service pricefeed reload >/dev/null 2>&1 || true
    endscript'
path=$log
case "$fault" in
  bad_size_unit) size=${size}B ;;
  missing_endscript) reopen=${reopen%$'\n'*} ;;
  path_mismatch)
    # The log was renamed in the last release; the rotation still names the old file.
    for other in "${names[@]}"; do [ "$other" != "$name" ] && path=$dir/$other && break; done ;;
  no_reopen) reopen='    # pricefeed reopens its log on SIGHUP' ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
cat >/etc/logrotate.d/pricefeed <<CONF
# pricefeed's log: daily, a week kept, compressed; rotated early past $size.
$path {
    daily
    maxsize $size
    rotate 7
    missingok
    notifempty
    compress
    delaycompress
    create 0640 pricefeed pricefeed
$reopen
}
CONF
# What the nightly runs left: logrotate has known this log since it was set up, and rotated it never.
{
  echo "logrotate state -- version 2"
  echo "\"/var/log/dpkg.log\" $(date -d '-1 day' +%Y-%-m-%-d-%-H:0:0)"
  echo "\"$path\" $(date -d "-$days days" +%Y-%-m-%-d-%-H:0:0)"
} >/var/lib/logrotate/status
if [ "$fault" = no_reopen ]; then
  # Here it did rotate last night, but pricefeed was never told: it still writes to the old file.
  service pricefeed start >/dev/null
  sleep 0.3
  mv "$log" "$log.1"
  install -o pricefeed -g pricefeed -m 0640 /dev/null "$log"
  sed -i "s|^\"$log\" .*|\"$log\" $(date -d '-1 day' +%Y-%-m-%-d-%-H:0:0)|" /var/lib/logrotate/status
else
  service pricefeed start >/dev/null
fi
printf 'logrotate -d /etc/logrotate.conf\ndf -h /var\nls -lh %s\nexit\n' "$dir" >/root/.bash_history
printf '{"fault":"%s","log":"%s","marker":"%s"}\n' "$fault" "$log" "$marker"
