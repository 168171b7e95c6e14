#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: read why
# invoiced refuses to start, find who has the lock file open (root cannot read other users'
# descriptors without ptrace, so ask as each user), look at that process, let a suspended export
# finish or end an orphaned helper, start invoiced.
set -uo pipefail
service invoiced start
tail -n 3 /var/log/invoiced/invoiced.log
lock=$(grep -o '/run/[^ ]*\.lock' /var/log/invoiced/invoiced.log | tail -n1)
cat /proc/locks; lsof "$lock"   # both silent: the locker is gone, and root has no ptrace here
ls -l "$lock"
# Whoever holds it has it open: ask each user's own processes, as that user.
pid=""
while read -r p user; do
  [ "$user" = root ] && continue
  hit=$(cd / && runuser -u "$user" -- find "/proc/$p/fd" -lname "$lock" 2>/dev/null)
  if [ -n "$hit" ]; then pid=$p; echo "pid $p ($user) has it open: $hit"; break; fi
done < <(ps -eo pid=,user=)
[ -n "$pid" ] || { echo "nobody holds $lock"; exit 1; }
ps -o pid,ppid,user,stat,lstart,args -p "$pid"
name=$(cat "/proc/$pid/comm"); state=$(awk '{print $3}' "/proc/$pid/stat")
if [ "$state" = T ]; then
  echo "pid $pid ($name) is stopped: let it finish"; kill -CONT "$pid"
  for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
else
  echo "pid $pid ($name) is an orphaned helper of the crashed invoiced: end it"; kill "$pid"; sleep 0.5
fi
kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
service invoiced start || exit 1
# Wait until it answers (a loaded host may take a few seconds to start it).
for _ in $(seq 40); do curl -sS --max-time 2 http://127.0.0.1:8080/health && break; sleep 0.5; done
echo "ANSWER: the ledger lock $lock was held by $name, PID $pid (state $state); ended it and started invoiced."
