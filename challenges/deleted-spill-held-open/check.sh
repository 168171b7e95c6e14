#!/bin/bash
# Grading: runs in the grader beside tsdb01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of tsdb01's. It asks:
#   /srv has room again and the database's blocks are intact;
#   tsdbd was not restarted (it was never the culprit, and a restart cuts its clients off), is the
#     system's program and writes its heartbeat again;
#   every background job runs (the system's job runner, as started by its script), the one that
#     held the space started again;
#   the written answer names the job that held the space and its spill file.
# Environment: FL_HOLDER, FL_SPILL, FL_JOBS, FL_BLOCKS, FL_DIGEST, FL_SETUP_AT; FL_SUBMISSION.

# main_pids ARG...: the target's processes with exactly these arguments (the grader shares its
# PID namespace, so /proc is the kernel's own list), leaving out a fork of such a process that
# has not run its own command yet: for a moment it shows its parent's arguments, then it becomes
# another program (sleep, mv...), which fl would rightly refuse.
main_pids() {
  python3 -I -S -c '
import os, sys
want = [a.encode() for a in sys.argv[1:]]
def argv(p):
    with open(f"/proc/{p}/cmdline", "rb") as f:
        return f.read().split(b"\0")[:-1]
for p in os.listdir("/proc"):
    if not p.isdigit():
        continue
    try:
        if argv(p) != want:
            continue
        parent = open(f"/proc/{p}/stat", "rb").read().rsplit(b")", 1)[1].split()[1].decode()
        if parent != "0" and argv(parent) == want:
            continue
    except OSError:
        continue
    print(p)
' "$@"
}

read -r free _ < <(fl df /srv) || refuse "The grader could not measure /srv."
[ "${free:-0}" -ge 16384 ] || refuse "/srv has only $((${free:-0} / 1024)) MiB free: the space is not back yet."
data=/srv/tsdb/data
names=$(fl ls "$data" 2>/dev/null | grep -E '^[0-9]{6}-[0-9]{6}\.blk$')
count=$(grep -c . <<<"$names")
digest=$(for n in $names; do fl read "$data/$n" || exit 1; done | sha256sum | cut -d' ' -f1)
if [ "$count" != "$FL_BLOCKS" ] || [ "$digest" != "$FL_DIGEST" ]; then
  refuse "The database's blocks in /srv/tsdb/data are not what they were: they must be kept."
fi

pids=$(main_pids /bin/bash /usr/sbin/tsdbd)
[ -n "$pids" ] || refuse "tsdbd is not running."
verified=0
for pid in $pids; do
  msg=$(fl process "$pid" /usr/bin/bash --argv '["/bin/bash","/usr/sbin/tsdbd"]') || {
    [ -e "/proc/$pid" ] || continue  # ended since it was listed
    refuse "$msg"
  }
  started=$(fl started "$pid") || { [ -e "/proc/$pid" ] || continue; refuse "$started"; }
  [ "${started%.*}" -lt "$FL_SETUP_AT" ] ||
    refuse "tsdbd was restarted, which cut off its clients, and it was not what held the space. Find the process that did."
  verified=$((verified + 1))
done
[ "$verified" -gt 0 ] || refuse "tsdbd is not running."
first=$(fl read "$data/heartbeat" 2>/dev/null || echo 0)
sleep 2
second=$(fl read "$data/heartbeat" 2>/dev/null || echo 0)
[ "$second" -gt "$first" ] 2>/dev/null || refuse "tsdbd runs, but its heartbeat in $data/heartbeat is not moving."

# The jobs: the grader shares the target's PID namespace, so the kernel's /proc lists the
# target's processes (the grader's own never run this program); fl verifies each one.
running=$(python3 -I -S -c '
import os
for p in os.listdir("/proc"):
    if p.isdigit():
        try:
            a = open(f"/proc/{p}/cmdline", "rb").read().split(b"\0")[:-1]
            parent = open(f"/proc/{p}/stat", "rb").read().rsplit(b")", 1)[1].split()[1].decode()
            if open(f"/proc/{parent}/cmdline", "rb").read().split(b"\0")[:-1] == a:
                continue  # a fork of its parent that has not run its command yet
        except OSError:
            continue
        if len(a) == 5 and a[:4] == [b"/usr/bin/python3", b"-I", b"-S", b"/usr/lib/tsdb/tsdb-job"]:
            print(p, a[4].decode("utf-8", "replace"))
')
for j in $FL_JOBS; do
  jp=$(awk -v j="$j" '$2 == j {print $1}' <<<"$running")
  # Every job, the one that held the space too (started again, idle): naming only the others
  # would tell, by elimination, which one it was.
  [ -n "$jp" ] || refuse "The background job $j is not running: every job must run (service tsdb-jobs status)."
  for pid in $jp; do
    msg=$(fl process "$pid" /usr/bin/python3.11 --argv "[\"/usr/bin/python3\",\"-I\",\"-S\",\"/usr/lib/tsdb/tsdb-job\",\"$j\"]") || refuse "$msg"
  done
done

named=0
for j in $FL_JOBS; do answer_mentions "$j" && named=$((named + 1)); done
answer_mentions "$FL_HOLDER" || refuse "/srv is healthy again. Your answer does not name the job that held the space."
[ "$named" = 1 ] || refuse "/srv is healthy again. Your answer names several jobs: say which one held the space."
answer_mentions "$FL_SPILL" || answer_mentions "/srv/tsdb/tmp/$FL_SPILL" ||
  refuse "/srv is healthy again. Your answer does not name the deleted file that held the space."
echo "/srv has $((free / 1024)) MiB free, tsdbd kept running and writes again, and you named what held the space."
