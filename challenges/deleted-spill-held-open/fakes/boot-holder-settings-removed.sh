#!/bin/bash
# Fake (fixed now, broken at the next boot): end whatever holds the deleted spill, then make sure
# the guilty job can never spill again by deleting its settings, and start it by hand: it runs
# now, but the init script starts only the jobs it finds settings for.
for p in /proc/[0-9]*; do
  { ls -l "$p/fd" 2>/dev/null; cat "$p/maps" 2>/dev/null; } | grep -q '/srv/.* (deleted)' && kill "${p#/proc/}"
done
sleep 1
for c in /etc/tsdb/jobs/*.conf; do
  j=${c##*/}; j=${j%.conf}
  grep -q "spilled" "/var/log/tsdb/$j.log" 2>/dev/null || continue
  rm -f "$c"
  service tsdb-jobs start "$j"
done
sleep 1.5
