#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: df and du
# find the file eating /var, lsof and ps find the process writing it, its settings show why
# (a trace left on), the trace is switched off, the worker restarted (its supervisor starts it
# again with the new settings) and the file removed.
set -uo pipefail
df -h /var
service ingest status
du -xah /var 2>/dev/null | sort -h | tail -n 5
big=$(find /var -xdev -type f -size +16M -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
echo "biggest file: $big"
pids=$(lsof -t -- "$big" 2>/dev/null | sort -u)
for pid in $pids; do ps -o pid=,args= -p "$pid"; done
worker=""
for pid in $pids; do
  set -- $(ps -o args= -p "$pid")
  [ "${2:-}" = /usr/lib/ingest/worker ] && worker=$3
done
[ -n "$worker" ] || { echo "no worker holds $big"; exit 1; }
conf=/etc/ingest/workers/$worker.conf
grep -n trace "$conf"
sed -i 's|^\(\s*trace\s*=.*\)|# \1|' "$conf"
for pid in $pids; do kill "$pid" 2>/dev/null; done
rm -f -- "$big"
sleep 2
df -h /var
service ingest status
echo "ANSWER: the ingest worker $worker had a debugging trace switched on in $conf and wrote it to $big until /var was full; I switched the trace off, restarted the worker and deleted $big."
