#!/bin/bash
# Fake: close redis at run time only (CONFIG SET bind and protected mode, without CONFIG REWRITE),
# delete the planted keys, keep every session: closed now, open to the world again at the next
# restart, since redis.conf still says what it said.
conf=/etc/redis/redis.conf
port=$(awk '$1 == "port" {print $2}' "$conf")
for key in $(redis-cli -p "$port" --scan | grep -vE '^(session:|shop:)'); do redis-cli -p "$port" DEL "$key" >/dev/null; done
redis-cli -p "$port" CONFIG SET protected-mode yes
redis-cli -p "$port" CONFIG SET bind "127.0.0.1 -::1"
redis-cli -p "$port" SAVE
