#!/bin/bash
# Grading: runs in the grader beside api01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of api01's. Live and after a reboot:
#   the CPU is quiet and stays so: over two seconds of the kernel's account of api01's processes,
#     no process keeps a CPU busy, nothing runs the runaway program or its watchdog, the culprit
#     runs nothing at all (stopped is not gone; a renamed copy of the watchdog is the culprit's
#     too), and cron (which must keep running, not stopped) has nothing new to start: every
#     crontab of the system is as installed, but for the culprit's own, which may hold comments
#     and settings only (cron's comment rule: a "#" first on the line; a "#" inside a word is
#     text to cron and to sh); nothing new starts at boot (init.d, rc*.d, rc.local and the
#     /etc/default files the init scripts source, as installed). Looked at before any
#     connection to api01, so nothing there can tell the grader is looking.
#   pricing-api survived: it answers with this deployment's instance, and port 8080 is held by the
#     system's program, started the usual way, as its user.
# The written answer (the program and the user) is judged by the platform (challenge.yaml).
# Environment: FL_TARGET, FL_USER, FL_BURNER, FL_RESPAWNER, FL_FAULT, FL_INSTANCE.
verdict=$(python3 -I -S - <<'PY'
import os, re, time
fl = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "/tmp/fl.py", "exec"), fl)
Refused = fl["Refused"]
burner, respawner = os.environ["FL_BURNER"], os.environ["FL_RESPAWNER"]
hz = os.sysconf("SC_CLK_TCK")


def out(*words):
    print(*words)
    raise SystemExit


def ns_pid(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("NSpid:"):
                return line.split()[-1]
    return "?"


try:
    culprit = fl["_passwd"]()[os.environ["FL_USER"]][0]
except (KeyError, OSError, Refused):
    culprit = None


def look():
    """{pid: (state, cpu ticks, uid, argv, exe)} of the target's processes."""
    seen = {}
    for pid in fl["target_pids"]():
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            try:
                exe = fl["exe"](pid)
            except OSError:
                exe = None
            seen[pid] = (fields[0].decode(), int(fields[11]) + int(fields[12]), fl["uid_of"](pid), fl["argv"](pid), exe)
        except OSError:
            continue
    return seen


window = 2.0
first = look()
time.sleep(window)
second = look()
found = set()
for snapshot in (first, second):
    for pid, (state, ticks, uid, args, exe) in snapshot.items():
        stopped = state in ("T", "t")
        if burner in args:
            found.add("burner-stopped" if stopped else "burner")
        if respawner in args:
            found.add("respawner-stopped" if stopped else "respawner")
        if uid == culprit:
            found.add("stopped" if stopped else "culprit")
for finding in ("burner", "respawner", "burner-stopped", "respawner-stopped", "stopped", "culprit"):
    if finding in found:
        out(finding)
# Whatever its name: a process that spins.
for pid, (state, ticks, uid, args, exe) in second.items():
    if pid not in first:
        continue
    used = ticks - first[pid][1]
    # A busy loop: running or runnable at both looks, and CPU time in between (a starved
    # machine gives a spinning process a small share of a CPU, but never none; an idle one is
    # asleep when looked at).
    if used >= max(2, 0.01 * window * hz) and state == "R" and first[pid][0] == "R":
        out("hot", ns_pid(pid))
crons = [pid for pid, p in second.items() if p[4] == "/usr/sbin/cron" and p[3] == ["/usr/sbin/cron"]]
if not crons:
    out("nocron")
for pid in crons:
    if second[pid][0] in ("T", "t"):
        out("cronstopped")
    try:
        fl["verify_process"](pid, "/usr/sbin/cron", ["/usr/sbin/cron"])
    except Refused as e:
        out("refused", e)

# What cron or a boot will start: the system's crontabs and start-up scripts as installed, the
# culprit's own crontab without entries.
try:
    for d in ("/etc/crontab", "/etc/cron.d", "/etc/cron.hourly", "/etc/cron.daily", "/etc/cron.weekly", "/etc/cron.monthly"):
        fl["pristine"](d)
except Refused:
    out("systemcron")
except OSError:
    out("unreadable")
try:
    # The init scripts and what they source at every start (/etc/default/cron for cron's).
    for d in ("/etc/init.d", "/etc/rcS.d", "/etc/rc2.d", "/etc/rc3.d", "/etc/rc4.d", "/etc/rc5.d", "/etc/rc.local", "/etc/default"):
        fl["pristine"](d)
except Refused:
    out("boot")
except OSError:
    out("unreadable")
spool = "/var/spool/cron/crontabs"
try:
    tabs = fl["list_dir"](spool)
except FileNotFoundError:
    tabs = []
except (OSError, Refused):
    out("unreadable")
for tab in tabs:
    if tab != os.environ["FL_USER"]:
        out("othertab", tab)
    try:
        text = fl["read_file"](f"{spool}/{tab}").decode("utf-8", "surrogateescape")
    except (OSError, Refused):
        out("unreadable")
    for line in text.split("\n"):
        bare = line.lstrip(" \t\r\v\f")
        # A comment, a blank line or a setting (NAME=value) schedules nothing; anything else
        # may be an entry.
        if bare and not bare.startswith("#") and not re.match(r"[A-Za-z_][A-Za-z0-9_]*[ \t]*=", bare):
            out("scheduled")
out("ok")
PY
)
case "$verdict" in
  ok) ;;
  hot\ *) refuse "A process on api01 (PID ${verdict#hot }) still keeps a CPU busy." ;;
  burner) refuse "The runaway program is still running on api01." ;;
  respawner) refuse "The CPU is quiet for now, but what started the runaway program again is still there." ;;
  burner-stopped) refuse "The CPU is quiet, but the runaway program is still there (stopped is not gone)." ;;
  respawner-stopped) refuse "The CPU is quiet, but what started the runaway program again is only stopped, not gone." ;;
  stopped) refuse "The CPU is quiet, but a process of the user who started the runaway is only stopped: stopped is not gone." ;;
  culprit) refuse "The CPU is quiet, but the user who started the runaway still runs something: a copy of what brought it back would look just like that." ;;
  nocron) refuse "cron is not running on api01: the host's scheduler must keep running, without the runaway's entry." ;;
  cronstopped) refuse "cron is stopped on api01: the host's scheduler must keep running, without the runaway's entry." ;;
  refused\ *) refuse "${verdict#refused }" ;;
  boot) refuse "What api01 starts at boot (/etc/init.d, /etc/rc*.d, /etc/rc.local, the /etc/default files they read) is not as installed: nothing new belongs there." ;;
  systemcron) refuse "The system's crontabs (/etc/crontab, /etc/cron.d, /etc/cron.*) are not as installed: the runaway's schedule belongs nowhere." ;;
  othertab\ *) refuse "Something is scheduled in /var/spool/cron/crontabs/${verdict#othertab }: the runaway's schedule belongs nowhere." ;;
  scheduled) refuse "The CPU is quiet for now, but what started the runaway program again is still scheduled." ;;
  *) refuse "The grader could not look at api01's processes and schedules: not graded." ;;
esac

body=$(fetch "http://${FL_TARGET}:8080/health" -sS --max-time 5 2>&1) ||
  refuse "pricing-api does not answer at http://${FL_TARGET}:8080 any more: the shop needs it (${body#curl: })."
[[ "$body" == *"\"instance\": \"$FL_INSTANCE\""* ]] || refuse "Something answers on port 8080, but it is not this host's pricing-api."
# The program's path by @NAME: its words are among the written answer's candidates, which no
# grader command line may carry.
export FL_PRICING_PY=/usr/lib/pricing/pricing.py
pids=$(fl service 8080 /usr/bin/python3.11 --argv '["/usr/bin/python3","-I","-S","@PRICING_PY","8080"]') || refuse "$pids"
for pid in $pids; do
  u=$(fl user "$pid") || refuse "$u"
  [ "$u" = pricing ] || refuse "pricing-api runs as $u: start it with its service script, as the user pricing."
done
echo "api01's CPU is quiet and stays so, and pricing-api still serves."
