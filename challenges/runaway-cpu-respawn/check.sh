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

# One look at api01's processes, through the kernel's account: the grader shares api01's PID
# namespace, so /proc here lists them (the grader's own, in another cgroup, are skipped). The
# deployment's values come through the environment, never the command line (ps shows it).
#   burner: states of the processes still running the program ("" when none, T = stopped)
#   respawner: 1 when a process still runs the watchdog
#   hot: how many processes used more than a tenth of a CPU over 3 s (even on a crowded machine
#        a busy loop gets that; an idle service stays far below)
read -r burner respawner hot < <(python3 -I -S - <<'PY'
import os, time
own = open("/proc/self/cgroup", "rb").read()
burner = os.environ["FL_BURNER"].encode()
watchdog = os.environ["FL_RESPAWNER"].encode() if os.environ.get("FL_FAULT") == "watchdog" else None
def scan():
    ticks, states, respawn = {}, "", 0
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            if open(f"/proc/{p}/cgroup", "rb").read() == own:
                continue
            args = open(f"/proc/{p}/cmdline", "rb").read().replace(b"\0", b" ")
            f = open(f"/proc/{p}/stat", "rb").read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        ticks[p] = int(f[11]) + int(f[12])
        if burner in args:
            states += f[0].decode()
        if watchdog and watchdog in args:
            respawn = 1
    return ticks, states, respawn
a, states, respawn = scan()
time.sleep(3)
b, states2, respawn2 = scan()
hz = os.sysconf("SC_CLK_TCK")
hot = sum(1 for p in b if b[p] - a.get(p, b[p]) > 0.1 * 3 * hz)
print(states + states2 or "-", max(respawn, respawn2), hot)
PY
)
if [ "${burner:--}" != - ]; then
  [[ "$burner" =~ [^T] ]] && refuse "A process on api01 still keeps a CPU busy."
  refuse "The CPU is quiet, but the runaway program is still there (stopped is not gone)."
fi
if [ "${respawner:-1}" != 0 ]; then
  refuse "The CPU is quiet for now, but what started the runaway program again is still there."
fi
if [ "$FL_FAULT" = user_crontab ] && tab=$(fl read "/var/spool/cron/crontabs/$FL_USER" 2>/dev/null); then
  if sed 's/#.*//' <<<"$tab" | grep -qF -- "$FL_RESPAWNER"; then
    refuse "The CPU is quiet for now, but what started the runaway program again is still scheduled."
  fi
fi
[ "${hot:-1}" = 0 ] || refuse "Something on api01 still keeps a CPU busy."

# The written answer: which program, and who started it.
if ! answer_mentions "$FL_NAME" && ! answer_mentions "$FL_BURNER"; then
  refuse "The CPU is quiet, but the answer does not name the program that was using it."
fi
answer_mentions "$FL_USER" || refuse "The CPU is quiet, but the answer does not name the user who started the program."
echo "api01's CPU is quiet and stays so, pricing-api still serves, and the answer names the culprit."
