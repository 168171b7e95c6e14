#!/bin/bash
# Collects the host's load and memory for the metrics dashboard.
set -eu
. /srv/metrics/collect.conf
echo "$(date +%s) $METRICS_HOST $(cut -d' ' -f1 /proc/loadavg) $(awk '/MemAvailable/ {print $2}' /proc/meminfo)" >>"$METRICS_OUT"
