#!/bin/bash
# Fake: free the space, then replace tsdbd with a copy run by a bash from the writable
# /usr/local, showing the same arguments.
for p in /proc/[0-9]*; do
  { ls -l "$p/fd" 2>/dev/null; cat "$p/maps" 2>/dev/null; } | grep -q '/srv/.* (deleted)' && kill "${p#/proc/}"
done
cp /bin/bash /usr/local/bin/bash
setsid /usr/local/bin/bash -c 'exec -a /bin/bash /usr/local/bin/bash /usr/sbin/tsdbd' </dev/null >/dev/null 2>&1 &
sleep 1.5
