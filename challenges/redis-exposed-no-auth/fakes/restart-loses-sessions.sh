#!/bin/bash
# Wrong fix: bind redis to loopback and restart it straight away; with snapshots off, every
# session (and the planted keys) is lost, and customers are logged out.
conf=/etc/redis/redis.conf
sed -i -E 's/^#? *bind .*/bind 127.0.0.1 -::1/' "$conf"
grep -q '^bind ' "$conf" || echo 'bind 127.0.0.1 -::1' >>"$conf"
service redis-server restart
sleep 0.5
