#!/bin/bash
# Wrong fix: set a password on the running redis and in its file, but forget its client:
# shopfront cannot read the sessions any more.
conf=/etc/redis/redis.conf
port=$(awk '$1 == "port" {print $2}' "$conf")
pass=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
redis-cli -p "$port" CONFIG SET requirepass "$pass" >/dev/null
echo "requirepass $pass" >>"$conf"
