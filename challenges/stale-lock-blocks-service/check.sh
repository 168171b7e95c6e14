#!/bin/bash
# Grading: runs in the grader beside billing01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of billing01's. It asks:
#   invoiced answers with this deployment's instance, and port 8080 is held by the system's
#     program, started the usual way, as its user, holding the ledger's lock (/proc/locks);
#   the process that held the lock is gone (the kernel's account, read through the shared PID
#     namespace: same pid and same start time means the same process); deleting the lock file
#     and starting a second invoiced beside it is not a fix;
#   the written answer names the process that held the lock: its program and its PID.
# Environment: FL_TARGET, FL_INSTANCE, FL_HOLDER_PID, FL_HOLDER_START, FL_HOLDER_NAME.
url="http://${FL_TARGET}:8080/health"
body=$(curl -sS --max-time 5 "$url" 2>&1) || refuse "Nothing answers at $url: invoiced is not running (${body#curl: })."
[[ "$body" == *"\"instance\": \"$FL_INSTANCE\""* ]] || refuse "Something answers on port 8080, but it is not this host's invoiced."
pids=$(fl service 8080 /usr/bin/python3.11 --argv '["/usr/bin/python3","-I","-S","/usr/lib/invoiced/invoiced.py"]') || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = invoiced ] || refuse "invoiced runs as $user: start it with its service script, as the user invoiced."
done

if [ -r "/proc/$FL_HOLDER_PID/stat" ] && [ "$(awk '{print $22}' "/proc/$FL_HOLDER_PID/stat" 2>/dev/null)" = "$FL_HOLDER_START" ]; then
  refuse "invoiced runs, but the process that held the ledger's lock is still alive beside it: the lock no longer keeps them apart."
fi
locked=""
for pid in $pids; do grep -q "FLOCK *ADVISORY *WRITE $pid " /proc/locks && locked=1; done
[ -n "$locked" ] || refuse "invoiced runs but does not hold the ledger's lock."

answer_mentions "$FL_HOLDER_NAME" || refuse "invoiced runs, but the answer does not name the program that held the lock."
answer_mentions "$FL_HOLDER_PID" || refuse "invoiced runs, but the answer does not give the PID of the process that held the lock."
echo "invoiced is back, holding its lock alone, and the answer names the process that blocked it."
