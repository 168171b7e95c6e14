#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: read the
# log ("Too many open files"), count what tsdb needs, find every place that sets its limit (the
# service script's defaults, tsdb's own max_open_files), raise them, restart, check the limits of
# the running process.
set -uo pipefail
service tsdb start
tail -n 3 /var/log/tsdb/tsdb.log
need=$(ls /var/lib/tsdb/shards | wc -l); echo "tsdb needs $need descriptors plus a few"
grep -n ulimit /etc/init.d/tsdb
grep -n NOFILE /etc/default/tsdb
grep -n max_open_files /etc/tsdb/tsdb.conf
# Only what is too low is changed: a file rewritten for nothing looks changed to anyone who
# compares its change time with the service's start.
# The last assignment wins in the sourced defaults: remove the lowered ones, keep the shipped one.
limit=$(. /etc/default/tsdb; echo "${NOFILE_LIMIT:-4096}")
if [ "$limit" -lt $((need + 64)) ]; then
  echo "the service script starts tsdb with at most $limit descriptors"
  sed -i '/^# CIS hardening/d; /^NOFILE_LIMIT=/d' /etc/default/tsdb && echo 'NOFILE_LIMIT=4096' >>/etc/default/tsdb
fi
own=$(awk -F'=' '/^max_open_files[[:space:]]*=/ {gsub(/[[:space:]]/, "", $2); print $2}' /etc/tsdb/tsdb.conf | tail -n1)
if [ "${own:-0}" != 0 ] && [ "$own" -lt $((need + 64)) ]; then
  echo "tsdb lowers its own limit to $own"
  sed -i 's/^max_open_files = .*/max_open_files = 0/' /etc/tsdb/tsdb.conf
fi
service tsdb restart || exit 1
grep 'open files' "/proc/$(cat /run/tsdb.pid)/limits"
# Opening every shard takes a moment.
for _ in $(seq 30); do curl -sS --max-time 2 http://127.0.0.1:9090/health && exit 0; sleep 0.5; done
exit 1
