#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: see redis
# listening on every address, confirm it answers without a password from the network address,
# look at what is in it (sessions, and a few keys holding cron lines: an attacker's), then close
# it without losing the sessions: snapshot, delete the planted keys, bind it to loopback in the
# configuration, restart (redis loads the snapshot), and check shopfront.
set -uo pipefail
ss -ltn
conf=/etc/redis/redis.conf
port=$(awk '$1 == "port" {print $2}' "$conf")
ip=$(ip -4 -o addr show scope global | awk '{split($4, a, "/"); print a[1]; exit}')
echo "from the network address: $(redis-cli -h "$ip" -p "$port" PING 2>&1)"
grep -nE '^(# *)?(bind|protected-mode|requirepass|save)\b' "$conf"
redis-cli -p "$port" DBSIZE
# Keys that are not the shop's (sessions and shop:*): look at them, then remove them.
redis-cli -p "$port" --scan | grep -vE '^(session:|shop:)' | while read -r key; do
  echo "planted key $key: $(redis-cli -p "$port" GET "$key" | tr '\n' ' ' | head -c 120)"
  redis-cli -p "$port" DEL "$key" >/dev/null
done
sed -i -E '/^bind /d; s/^protected-mode .*/protected-mode yes/' "$conf"
echo 'bind 127.0.0.1 -::1' >>"$conf"
# `save ""` makes it a pure cache: take a snapshot by hand so the restart keeps the sessions.
redis-cli -p "$port" SAVE
service redis-server restart
for _ in $(seq 30); do redis-cli -p "$port" PING >/dev/null 2>&1 && break; sleep 0.2; done
echo "from the network address now: $(redis-cli -h "$ip" -p "$port" PING 2>&1)"
redis-cli -p "$port" DBSIZE
curl -s http://localhost:8080/health
