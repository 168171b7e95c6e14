#!/bin/bash
# Fake: "switch the trace off" by adding `trace = /dev/null` at the top of the guilty worker's
# settings, empty the trace and restart that worker. The worker obeys the last `trace =` line it
# finds, which still names the trace file.
big=$(find /var -xdev -type f -size +16M -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
for pid in $(lsof -t -- "$big"); do
  w=$(ps -o args= -p "$pid" | awk '{print $3}')
  [ -n "$w" ] && sed -i '1a trace = /dev/null' "/etc/ingest/workers/$w.conf"
  kill "$pid"
done
: >"$big"
sleep 2
