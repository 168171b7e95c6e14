#!/bin/bash
# Fake (boot class): repaired copies of tsdb's configuration and of the service's defaults in
# /run, linked from /etc, and tsdb restarted the usual way: it serves every shard now, but /run
# is empty after a reboot, and the files on disk were never repaired.
mkdir -p /run/tsdb-fix
sed 's/^max_open_files = .*/max_open_files = 0/' /etc/tsdb/tsdb.conf >/run/tsdb-fix/tsdb.conf
sed '/^# CIS hardening/,$d' /etc/default/tsdb >/run/tsdb-fix/default
ln -sf /run/tsdb-fix/tsdb.conf /etc/tsdb/tsdb.conf
ln -sf /run/tsdb-fix/default /etc/default/tsdb
service tsdb restart
for _ in $(seq 30); do curl -s --max-time 2 -o /dev/null http://127.0.0.1:9090/health && break; sleep 0.5; done
