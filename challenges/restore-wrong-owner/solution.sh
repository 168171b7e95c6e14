#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: read why
# tallyd will not start, find its user and data directory, give the data back to that user with
# sane modes (no write access for others), restart, and watch the heartbeat.
set -uo pipefail
service tallyd status
tail -n 3 /var/log/tallyd/tallyd.log
cat /etc/default/tallyd
user=$(sed -n 's/^TALLY_USER=//p' /etc/default/tallyd)
data=$(sed -n 's/^DATA_DIR=//p' /etc/default/tallyd)
ls -ln "$data" "$data"/*
chown -R "$user:$user" "$data"
chmod -R u+rwX,go-w "$data"
service tallyd restart || { tail -n 3 /var/log/tallyd/tallyd.log; exit 1; }
sleep 2
tail -n 2 /var/log/tallyd/tallyd.log
cat "$data/db/heartbeat"
