#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): picks
# the ingest workers (random names, intervals), leaves a debugging trace switched on in one of
# them, writing to a random path under /var, starts the workers and lets that trace fill /var.
# Prints the check's values as JSON on its last line.
set -euo pipefail
service ingest stop >/dev/null 2>&1 || true
rm -rf /etc/ingest/workers/* /var/lib/ingest/* /var/log/ingest/* /var/cache/ingest/* /var/spool/ingest/*
mkdir -p /etc/ingest/workers /var/lib/ingest /var/log/ingest /var/cache/ingest /var/spool/ingest

all=(thumbnailer feed-sync audit-shipper session-gc geoip-refresh price-import sitemap-build mail-digest)
mapfile -t workers < <(shuf -n $((3 + RANDOM % 2)) -e "${all[@]}")
culprit=${workers[RANDOM % ${#workers[@]}]}
hex=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
case $((RANDOM % 4)) in
  0) trace=/var/cache/ingest/$culprit/trace-$hex.log ;;
  1) trace=/var/tmp/$culprit-debug-$hex.trc ;;
  2) trace=/var/spool/ingest/$culprit/retry-$hex.dump ;;
  3) trace=/var/lib/ingest/.$culprit-$hex.trace ;;
esac
mkdir -p "${trace%/*}"
for w in "${workers[@]}"; do
  mkdir -p "/var/cache/ingest/$w" "/var/spool/ingest/$w"
  {
    echo "# ingest worker $w. Apply changes by restarting the worker (or: service ingest restart)."
    echo "interval = $((2 + RANDOM % 3))"
    echo "queue = ingest.$w"
    echo "# trace = /var/tmp/$w.trace   (debugging only: very verbose)"
    [ "$w" = "$culprit" ] && echo "trace = $trace"
  } >"/etc/ingest/workers/$w.conf"
done
# Data a worker needs and that must survive the clean-up: the product catalogue's snapshot.
head -c $(((1536 + RANDOM % 2048) * 1024)) /dev/urandom >/var/lib/ingest/catalog.snapshot
catalog=$(sha256sum /var/lib/ingest/catalog.snapshot | cut -d' ' -f1)
for w in "${workers[@]}"; do
  for d in 3 2 1; do echo "$(date -d "-$d days" -Is) $w: run ok"; done >"/var/log/ingest/$w.log.1"
done

# The trace has been running since last night: by now it has eaten all of /var.
yes "TRACE $culprit step=0 queue=ingest.$culprit state=retrying backoff_ms=0 payload=$(printf '%064d' 0)" \
  >>"$trace" 2>/dev/null || true
service ingest start >/dev/null
sleep 0.5
# The files a player could name as the one that filled /var (the written answer's candidates):
# every file of the pipeline's under /var, and the trace.
files=("$trace" /var/lib/ingest/catalog.snapshot /var/log/ingest/supervisor.log)
for w in "${workers[@]}"; do files+=("/var/log/ingest/$w.log" "/var/log/ingest/$w.log.1" "/var/lib/ingest/$w.beat"); done
printf '{"culprit":"%s","trace":"%s","workers":"%s","files":"%s","catalog":"%s"}\n' "$culprit" "$trace" "${workers[*]}" "${files[*]}" "$catalog"
