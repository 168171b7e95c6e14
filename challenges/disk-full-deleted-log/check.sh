#!/bin/bash
# Grading: sent in at grading time (check.runs_in: target) and run by the platform, never left in
# the container. It uses only binaries from the read-only /usr. Environment: FL_JOURNALS and
# FL_DIGEST chosen by setup.sh. Exit 0 = fixed; stdout = feedback for the user.
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
if [ -s /etc/ld.so.preload ]; then
  echo "/etc/ld.so.preload is set: grading refuses to run with preloaded libraries."
  exit 1
fi
avail_kb=$(df -Pk /srv | awk 'NR==2 {print $4}')
if [ "${avail_kb:-0}" -lt 16384 ]; then
  echo "/srv has only $((${avail_kb:-0} / 1024)) MiB free: the space is not back yet."
  exit 1
fi
count=$(ls /srv/ledger/data/journal-*.dat 2>/dev/null | wc -l)
digest=$(cat /srv/ledger/data/journal-*.dat 2>/dev/null | sha256sum | cut -d' ' -f1)
if [ "$count" != "$FL_JOURNALS" ] || [ "$digest" != "$FL_DIGEST" ]; then
  echo "The journals in /srv/ledger/data are not what they were: the ledger's data must be kept."
  exit 1
fi
pid=$(cat /run/ledgerd.pid 2>/dev/null)
if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null || [ "$(cat "/proc/$pid/comm" 2>/dev/null)" != ledgerd ]; then
  echo "ledgerd is not running."
  exit 1
fi
first=$(cat /srv/ledger/data/heartbeat 2>/dev/null || echo 0)
sleep 2.5
second=$(cat /srv/ledger/data/heartbeat 2>/dev/null || echo 0)
if ! [ "$second" -gt "$first" ] 2>/dev/null; then
  echo "ledgerd runs, but its heartbeat in /srv/ledger/data/heartbeat is not moving."
  exit 1
fi
echo "/srv has $((avail_kb / 1024)) MiB free, the journals are intact and ledgerd writes its heartbeat again."
