#!/bin/bash
# Fake: the write-up of the last disk-full incident: free the space by ending whatever holds a
# deleted file, and restart the database "to be sure".
for p in /proc/[0-9]*; do
  { ls -l "$p/fd" 2>/dev/null; cat "$p/maps" 2>/dev/null; } | grep -q '/srv/.* (deleted)' && kill "${p#/proc/}"
done
service tsdbd restart
sleep 1.5
