#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment, fed on stdin,
# never stored there). A user (random name) left a program (random name and place, bash or
# python) spinning on the CPU of api01, and something that brings it back when it dies
# (FAULTLINE_FAULT forces which): a watchdog loop of that user, or a line in the user's crontab.
# pricing-api, the real service, runs beside it and must survive the clean-up.
# Prints the values the check needs as JSON on its last line.
set -euo pipefail
faults=(watchdog user_crontab)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
users=(deploy jenkins analytics mlopez asingh kwong intern2 datasci)
names=(thumbgen imgsync feedindexer dbus-helper metricsd-agent cache-warmer geoip-update pdfrender)
dirs=(.cache .local/bin .local/share tools scratch)
user=${users[RANDOM % ${#users[@]}]}
name=${names[RANDOM % ${#names[@]}]}
home=/home/$user
id "$user" >/dev/null 2>&1 || useradd --create-home --uid $((2000 + RANDOM % 3000)) --shell /bin/bash "$user"
dir=$home/${dirs[RANDOM % ${#dirs[@]}]}/$name
mkdir -p "$dir"
burner=$dir/$name
if [ $((RANDOM % 2)) = 0 ]; then
  printf '#!/bin/bash\n# %s: retry until the queue drains (TODO: back-off)\nwhile :; do :; done\n' "$name" >"$burner"
else
  printf '#!/usr/bin/python3\n# %s: poll the job queue (TODO: sleep between polls)\nwhile True:\n    pass\n' "$name" >"$burner"
fi
chmod 0755 "$burner"
chown -R "$user:$user" "$home"

# pricing-api: the real service, with this deployment's instance id.
instance=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
echo "$instance" >/var/lib/pricing/instance-id
service pricing-api start >/dev/null
service cron start >/dev/null

case "$fault" in
  watchdog)
    wd=$home/$(shuf -n1 -e keepalive supervise autorestart run-forever).sh
    printf '#!/bin/bash\n# keep %s up while I am away\nwhile :; do\n  pgrep -u "$(id -u)" -f "%s" >/dev/null || setsid "%s" >/dev/null 2>&1 &\n  sleep 1\ndone\n' "$name" "$burner" "$burner" >"$wd"
    chmod 0755 "$wd"; chown "$user:$user" "$wd"
    su -s /bin/bash "$user" -c "cd; setsid nohup $wd >/dev/null 2>&1 &"
    respawner=$wd ;;
  user_crontab)
    starter=$home/bin/ensure-$name
    mkdir -p "$home/bin"
    printf '#!/bin/sh\npgrep -u "$(id -u)" -f "%s" >/dev/null || setsid "%s" >/dev/null 2>&1 &\n' "$burner" "$burner" >"$starter"
    chmod 0755 "$starter"; chown -R "$user:$user" "$home/bin"
    printf '# restart %s if it died\n* * * * * %s\n' "$name" "$starter" | crontab -u "$user" -
    su -s /bin/bash "$user" -c "cd; setsid nohup $burner >/dev/null 2>&1 &"
    respawner=$starter ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
for _ in $(seq 100); do pgrep -f "$burner" >/dev/null && break; sleep 0.1; done
# On a starved machine the first start can be lost: start it once more, as its user would.
pgrep -f "$burner" >/dev/null || su -s /bin/bash "$user" -c "cd; setsid nohup $burner >/dev/null 2>&1 &"
for _ in $(seq 100); do pgrep -f "$burner" >/dev/null && break; sleep 0.1; done
pgrep -f "$burner" >/dev/null || { echo "setup: the runaway did not start" >&2; exit 1; }
printf '{"fault":"%s","user":"%s","name":"%s","burner":"%s","respawner":"%s","instance":"%s"}\n' \
  "$fault" "$user" "$name" "$burner" "$respawner" "$instance"
