#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment, fed on stdin,
# never stored there). A user (random name) left a program (random name and place, bash or
# python) spinning on the CPU of api01, and something that brings it back when it dies
# (FAULTLINE_FAULT forces which): a watchdog loop of that user, or a line in the user's crontab
# (which cron reads again after a reboot). Two colleagues run idle programs of their own.
# pricing-api, the real service, runs beside it and must survive the clean-up.
# Prints the values the check needs as JSON on its last line.
set -euo pipefail
faults=(watchdog user_crontab)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
users=(deploybot jenkins analytics-etl mlopez asingh kwong intern2 datasci)
names=(thumbgen imgsync feedindexer dbus-helper metricsd-agent cache-warmer geoip-update pdfrender)
dirs=(.cache .local/bin .local/share tools scratch)
# The culprit and two colleagues with idle programs of their own (random names and places too):
# top shows who burns the CPU, ps alone does not.
mapfile -t picked < <(shuf -n3 -e "${users[@]}")
mapfile -t progs < <(shuf -n3 -e "${names[@]}")
user=${picked[0]}
name=${progs[0]}
for u in "${picked[@]}"; do
  id "$u" >/dev/null 2>&1 || useradd --create-home --uid $((2000 + RANDOM % 3000)) --shell /bin/bash "$u"
done
for i in 1 2; do
  u=${picked[i]} p=${progs[i]}
  d=/home/$u/${dirs[RANDOM % ${#dirs[@]}]}/$p
  mkdir -p "$d"
  printf '#!/bin/bash\n# %s: wait for work (polls every 30 s)\nwhile :; do sleep 30; done\n' "$p" >"$d/$p"
  chmod 0755 "$d/$p"; chown -R "$u:$u" "/home/$u"
  su -s /bin/bash "$u" -c "cd; setsid nohup $d/$p >/dev/null 2>&1 &"
done
home=/home/$user
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
# The written answer's candidates: every program name a runaway here could have, and every account
# that could have started one.
printf '{"fault":"%s","user":"%s","name":"%s","burner":"%s","respawner":"%s","instance":"%s","programs":"%s","users":"%s"}\n' \
  "$fault" "$user" "$name" "$burner" "$respawner" "$instance" "${names[*]} pricing.py" "${users[*]} pricing"
