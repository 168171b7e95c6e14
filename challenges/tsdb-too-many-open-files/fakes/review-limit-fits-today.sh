#!/bin/bash
# Fake: raise every limit only to what today's shards need (their count plus a handful), not to
# what the service shipped with: tsdb starts and serves every shard, and the next shards this
# week (the archive grows every week) end in "Too many open files" again. A check must judge that
# the limit tsdb really runs with leaves room to grow, not only that it fits today.
set -uo pipefail
shards=$(ls /var/lib/tsdb/shards | grep -c '\.dat$')
sed -i '/^# CIS hardening/d; /^NOFILE_LIMIT=/d' /etc/default/tsdb
echo "NOFILE_LIMIT=$((shards + 16))" >>/etc/default/tsdb
sed -i 's/^max_open_files = .*/max_open_files = 0/' /etc/tsdb/tsdb.conf
service tsdb restart >/dev/null 2>&1
sleep 0.5
