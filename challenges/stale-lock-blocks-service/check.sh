#!/bin/bash
# Grading: runs in the grader beside billing01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of billing01's. Live and after a reboot:
#   what the billing clients see: invoiced's health from another host, with this deployment's
#     instance;
#   who answers: port 8080 is held only by the system's invoiced, started the usual way, as its
#     user;
#   the lock: the process that held the ledger's lock is gone (the kernel's account of the
#     target's processes: its PID in the target and its start time), invoiced holds an exclusive
#     lock on /run/invoiced/invoiced.lock as it is now, and no other process holds a lock on any
#     file of /run/invoiced (deleting the lock file and starting a second writer beside the old
#     holder is not a fix).
# The written answer (the holder's program and PID) is judged by the platform (challenge.yaml).
# Environment: FL_TARGET, FL_INSTANCE, FL_HOLDER_PID, FL_HOLDER_START (chosen by setup.sh).
url="http://${FL_TARGET}:8080/health"
body=$(fetch "$url" -sS --max-time 5 2>&1) || refuse "Nothing answers at $url: invoiced is not running (${body#curl: })."
[[ "$body" == *"\"instance\": \"$FL_INSTANCE\""* ]] || refuse "Something answers on port 8080, but it is not this host's invoiced."
pids=$(fl service 8080 /usr/bin/python3.11 --argv '["/usr/bin/python3","-I","-S","/usr/lib/invoiced/invoiced.py"]') || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = invoiced ] || refuse "invoiced runs as $user: start it with its service script, as the user invoiced."
done

# One look at the target's processes, through fl's view of them (host PIDs; a process's PID in
# the target is the last of its NSpid). Values come through the environment.
export FL_SERVICE_PIDS=$pids
verdict=$(python3 -I -S - <<'PY'
import os
fl = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "/tmp/fl.py", "exec"), fl)
service = {int(p) for p in os.environ["FL_SERVICE_PIDS"].split()}
lock = "/run/invoiced/invoiced.lock"
try:
    want = fl["stat_path"](lock)
    want = (want.st_dev, want.st_ino)
except FileNotFoundError:
    want = None
except (OSError, fl["Refused"]):
    print("unreadable"); raise SystemExit

def ns_pid(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("NSpid:"):
                return int(line.split()[-1])

def start_ticks(pid):
    with open(f"/proc/{pid}/stat", "rb") as f:
        return int(f.read().rsplit(b")", 1)[1].split()[19])

holder_alive, service_locked, others = False, False, []
for pid in fl["target_pids"]():
    try:
        if ns_pid(pid) == int(os.environ["FL_HOLDER_PID"]) and start_ticks(pid) == int(os.environ["FL_HOLDER_START"]):
            holder_alive = True
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                name = os.readlink(f"/proc/{pid}/fd/{fd}")
                if not name.startswith("/run/invoiced/"):
                    continue
                with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                    locks = [l.split() for l in f if l.startswith("lock:")]
            except OSError:
                continue
            if not any("FLOCK" in l for l in locks):
                continue
            if pid not in service:
                others.append(ns_pid(pid))
                continue
            st = os.stat(f"/proc/{pid}/fd/{fd}")
            if (st.st_dev, st.st_ino) == want and any("FLOCK" in l and "WRITE" in l for l in locks):
                service_locked = True
    except OSError:
        continue
if holder_alive:
    print("holder")
elif others:
    print("others", others[0])
elif not service_locked:
    print("unlocked")
else:
    print("ok")
PY
)
case "$verdict" in
  ok) ;;
  holder) refuse "invoiced runs, but the process that held the ledger's lock is still alive beside it: the lock no longer keeps them apart." ;;
  others\ *) refuse "invoiced runs, but another process (${verdict#others }) still holds a lock in /run/invoiced: the ledger has two writers." ;;
  unlocked) refuse "invoiced runs but does not hold the ledger's lock (/run/invoiced/invoiced.lock)." ;;
  *) refuse "The grader could not look at the ledger's lock: not graded." ;;
esac
echo "invoiced is back, holding its lock alone."
