#!/bin/bash
# Grading: runs in the grader beside ingest01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of ingest01's. It asks:
#   /var has room and keeps it (free space measured twice), the catalogue snapshot is intact;
#   every worker runs (the system's worker program under its supervisor, started after the last
#     change of its settings) and its heartbeat moves, the culprit's too: it has a job to do;
#   the culprit's trace is off;
#   the written answer names the worker and the file that filled /var.
# Environment: FL_CULPRIT, FL_TRACE, FL_WORKERS, FL_CATALOG chosen by setup.sh; FL_SUBMISSION.
read -r free1 _ < <(fl df /var) || refuse "The grader could not measure /var."
[ "${free1:-0}" -ge 12288 ] || refuse "/var has only $((${free1:-0} / 1024)) MiB free: the space is not back yet."
digest=$(fl sha256 /var/lib/ingest/catalog.snapshot 2>/dev/null) ||
  refuse "/var/lib/ingest/catalog.snapshot is gone: the workers need it, it was not the problem."
[ "$digest" = "$FL_CATALOG" ] || refuse "/var/lib/ingest/catalog.snapshot was changed: it was not the problem."

sleep 2
read -r free2 _ < <(fl df /var) || refuse "The grader could not measure /var."
if [ $((free1 - free2)) -gt 512 ]; then
  refuse "/var lost $(((free1 - free2) / 1024 + 1)) MiB in two seconds: something is still filling it."
fi

# Who runs: the grader shares the target's PID namespace, so the kernel's /proc lists the
# target's processes (the grader's own never run these programs); fl then verifies each one.
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
        if a[:2] == [b"/bin/bash", b"/usr/sbin/ingest-supervisor"] and len(a) == 2:
            print(p, "supervisor")
        elif a[:2] == [b"/bin/bash", b"/usr/lib/ingest/worker"] and len(a) == 3:
            print(p, a[2].decode("utf-8", "replace"))
')
sup=$(awk '$2 == "supervisor" {print $1}' <<<"$running")
[ -n "$sup" ] || refuse "ingest-supervisor is not running: the workers are meant to run under it (service ingest)."
for pid in $sup; do
  msg=$(fl process "$pid" /usr/bin/bash --argv '["/bin/bash","/usr/sbin/ingest-supervisor"]') || refuse "$msg"
done
now=$(date +%s)
for w in $FL_WORKERS; do
  pids=$(awk -v w="$w" '$2 == w {print $1}' <<<"$running")
  [ -n "$pids" ] || refuse "The worker $w is not running: every worker has a job to do."
  for pid in $pids; do
    msg=$(fl process "$pid" /usr/bin/bash --argv "[\"/bin/bash\",\"/usr/lib/ingest/worker\",\"$w\"]" --config "/etc/ingest/workers/$w.conf") || refuse "$msg"
  done
  beat=$(fl read "/var/lib/ingest/$w.beat" 2>/dev/null || echo 0)
  [ $((now - beat)) -le 7 ] 2>/dev/null ||
    refuse "The worker $w runs, but its heartbeat in /var/lib/ingest/$w.beat is not moving."
done
conf=$(fl normalized "/etc/ingest/workers/$FL_CULPRIT.conf") || refuse "$conf"
if [[ " $conf " =~ [[:space:]]trace[[:space:]]?=[[:space:]]?([^[:space:]]+) ]] && [ "${BASH_REMATCH[1]}" != /dev/null ]; then
  refuse "/var has room for now, but a debugging trace is still switched on: it will fill a disk again."
fi

# The written answer: which worker, and which file.
named=0
for w in $FL_WORKERS; do answer_mentions "$w" && named=$((named + 1)); done
answer_mentions "$FL_CULPRIT" || refuse "/var is healthy again. Your answer does not name the worker that filled it."
[ "$named" = 1 ] || refuse "/var is healthy again. Your answer names several workers: say which one filled /var."
answer_mentions "$FL_TRACE" || answer_mentions "${FL_TRACE##*/}" ||
  refuse "/var is healthy again. Your answer does not name the file that filled it."
echo "/var has $((free2 / 1024)) MiB free and keeps it, every worker is back at work and you named the culprit."
