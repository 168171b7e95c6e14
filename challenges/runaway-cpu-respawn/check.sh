#!/bin/bash
# Grading: runs in the grader beside api01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of api01's. It asks:
#   pricing-api survived: it answers with this deployment's instance, and port 8080 is held by
#     the system's program started the usual way as its user;
#   the CPU is quiet: the kernel's account (/proc/<pid>/stat of api01's processes, read by the
#     grader, which shares api01's PID namespace) shows no process spinning over 3 seconds;
#   it stays quiet: the runaway program is gone (not merely stopped) and what restarted it is
#     gone too (the watchdog process, or the line in the user's crontab);
#   the written answer names the program and the user who started it.
# Environment: FL_TARGET, FL_USER, FL_NAME, FL_BURNER, FL_RESPAWNER, FL_FAULT, FL_INSTANCE.
body=$(curl -sS --max-time 5 "http://${FL_TARGET}:8080/health" 2>&1) || refuse "pricing-api does not answer at http://${FL_TARGET}:8080 any more: the shop needs it (${body#curl: })."
[[ "$body" == *"\"instance\": \"$FL_INSTANCE\""* ]] || refuse "Something answers on port 8080, but it is not this host's pricing-api."
pids=$(fl service 8080 /usr/bin/python3.11 --argv '["/usr/bin/python3","-I","-S","/usr/lib/pricing/pricing.py","8080"]') || refuse "$pids"
for pid in $pids; do
  u=$(fl user "$pid") || refuse "$u"
  [ "$u" = pricing ] || refuse "pricing-api runs as $u: start it with its service script, as the user pricing."
done

# Gone, not stopped: no process still runs the program, or the thing that restarts it. The
# grader shares api01's PID namespace, so /proc here is the kernel's account of api01's processes
# (the grader's own, in another cgroup, are skipped).
own=$(cat /proc/self/cgroup)
states=""; procs=""
for d in /proc/[0-9]*; do
  [ "$(cat "$d/cgroup" 2>/dev/null)" = "$own" ] && continue
  args=$(tr '\0' ' ' <"$d/cmdline" 2>/dev/null) || continue
  procs+="$args"$'\n'
  [[ "$args" == *"$FL_BURNER"* ]] && states+=" $(awk '{print $3}' "$d/stat" 2>/dev/null | tail -c 2)"
done
if [ -n "$states" ]; then
  [[ "$states" =~ [^\ T] ]] && refuse "A process on api01 still keeps a CPU busy."
  refuse "The CPU is quiet, but the runaway program is still there (stopped is not gone)."
fi
if [ "$FL_FAULT" = watchdog ] && grep -qF -- "$FL_RESPAWNER" <<<"$procs"; then
  refuse "The CPU is quiet for now, but what started the runaway program again is still there."
fi
if [ "$FL_FAULT" = user_crontab ] && tab=$(fl read "/var/spool/cron/crontabs/$FL_USER" 2>/dev/null); then
  if sed 's/#.*//' <<<"$tab" | grep -qF -- "$FL_RESPAWNER"; then
    refuse "The CPU is quiet for now, but what started the runaway program again is still scheduled."
  fi
fi

# Nothing else spins either (a copy under another name): CPU ticks of api01's processes, 3 s apart.
hot=$(python3 -I -S - <<'PY'
import os, time
own = open("/proc/self/cgroup", "rb").read()
def ticks():
    out = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            if open(f"/proc/{p}/cgroup", "rb").read() == own:
                continue
            f = open(f"/proc/{p}/stat", "rb").read().rsplit(b")", 1)[1].split()
            out[p] = int(f[11]) + int(f[12])
        except OSError:
            continue
    return out
a = ticks(); time.sleep(3); b = ticks()
hz = os.sysconf("SC_CLK_TCK")
# A tenth of a tick per tick of wall time: an idle service stays far below, a busy loop, even on a
# crowded machine, above.
print(sum(1 for p in b if b[p] - a.get(p, b[p]) > 0.1 * 3 * hz))
PY
)
[ "${hot:-1}" = 0 ] || refuse "Something on api01 still keeps a CPU busy."

# The written answer: which program, and who started it.
if ! answer_mentions "$FL_NAME" && ! answer_mentions "$FL_BURNER"; then
  refuse "The CPU is quiet, but the answer does not name the program that was using it."
fi
answer_mentions "$FL_USER" || refuse "The CPU is quiet, but the answer does not name the user who started the program."
echo "api01's CPU is quiet and stays so, pricing-api still serves, and the answer names the culprit."
