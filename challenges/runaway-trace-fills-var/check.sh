#!/bin/bash
# Grading: runs in the grader beside ingest01 (docs/decisions/008-grading-threat-model.md), out of
# its reach, and executes nothing of ingest01's. Both phases (live, and a booted copy of its disk):
#   /var has room and keeps it (measured before and after), the catalogue snapshot is intact;
#   the supervisor runs (the system's program, as its script starts it) and every worker runs
#     under it, the culprit too (each has a job to do): the system's worker program, started after
#     the last change of its settings, not stopped, its heartbeat fresh;
#   no worker traces: none holds a file open for writing (a trace is a descriptor the worker opens
#     at its start when its settings switch it on; /dev/null is nothing). This is what the worker
#     does with its settings, whatever they look like as text.
# The written answer (which worker, which file) is judged by the platform (challenge.yaml answer:).
# Environment: FL_WORKERS, FL_CATALOG.
#
# One Python process with fl's functions (`fl py`, fl as `fl`) does it all: each program
# start costs, on a busy host, more than the reading itself. (The snapshot's path is one of the
# written answer's candidates: like every value, it reaches the grader's programs through the
# environment, never their command lines.)
FL_SNAPSHOT=/var/lib/ingest/catalog.snapshot fl py '
import hashlib, os, stat, time

def free_kib():
    fd, _ = fl.resolve("/var", want_dir=True)
    try:
        s = os.fstatvfs(fd)
    finally:
        os.close(fd)
    return s.f_bavail * s.f_frsize // 1024

def state_and_parent(pid, label):
    """Refuses a stopped process (a frozen program does no work); returns its parent."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except OSError:
        raise fl.Refused(f"{label} (process {pid}) ended while the grader looked at it.")
    if fields[0] in (b"T", b"t", b"Z", b"X"):
        raise fl.Refused(f"{label} (process {pid}) is stopped: it does no work.")
    return int(fields[1])

def traces(pids):
    """(pid, fd, file identity, worker, path) of every descriptor from 3 up that a worker holds
    open for writing on anything but a character device."""
    seen = set()
    for pid, name in pids.items():
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for n in fds:
            if int(n) < 3:
                continue
            try:
                with open(f"/proc/{pid}/fdinfo/{n}") as f:
                    flags = int(next(l for l in f if l.startswith("flags:")).split()[1], 8)
                st = os.stat(f"/proc/{pid}/fd/{n}")
                target = os.readlink(f"/proc/{pid}/fd/{n}")
            except (OSError, StopIteration):
                continue
            if flags & 3 and not stat.S_ISCHR(st.st_mode):
                seen.add((pid, n, (st.st_dev, st.st_ino), name, target))
    return seen

free1 = free_kib()
if free1 < 12288:
    raise fl.Refused(f"/var has only {free1 // 1024} MiB free: the space is not back yet.")
snapshot = os.environ["FL_SNAPSHOT"]
try:
    fd, _ = fl.resolve(snapshot)
except FileNotFoundError:
    raise fl.Refused(f"{snapshot} is gone: the workers need it, it was not the problem.")
try:
    h = hashlib.sha256()
    for chunk in fl.stream(fd):
        h.update(chunk)
finally:
    os.close(fd)
if h.hexdigest() != os.environ["FL_CATALOG"]:
    raise fl.Refused(f"{snapshot} was changed: it was not the problem.")

supervisors = fl.verified_processes(["/bin/bash", "/usr/sbin/ingest-supervisor"], "/usr/bin/bash")
if not supervisors:
    raise fl.Refused("ingest-supervisor is not running: the workers are meant to run under it (service ingest).")
for pid in supervisors:
    state_and_parent(pid, "ingest-supervisor")
now = time.time()
workers = {}
for name in os.environ["FL_WORKERS"].split():
    pids = fl.verified_processes(["/bin/bash", "/usr/lib/ingest/worker", name], "/usr/bin/bash", [f"/etc/ingest/workers/{name}.conf"])
    if not pids:
        raise fl.Refused(f"The worker {name} is not running: every worker has a job to do.")
    for pid in pids:
        if state_and_parent(pid, f"The worker {name}") not in supervisors:
            raise fl.Refused(f"The worker {name} (process {pid}) was not started by ingest-supervisor: nothing would start it again if it stopped.")
        workers[pid] = name
    try:
        beat = int(fl.read_file(f"/var/lib/ingest/{name}.beat").strip() or 0)
    except (OSError, ValueError):
        beat = 0
    if now - beat > 7:
        raise fl.Refused(f"The worker {name} runs, but its heartbeat in /var/lib/ingest/{name}.beat is not moving.")

# A trace is held across two looks (the worker'"'"'s own short writes, its heartbeat and log
# lines, come and go within milliseconds), and /var keeps its room meanwhile.
first = traces(workers)
time.sleep(0.6)
for pid, n, ident, name, target in sorted(first & traces(workers)):
    raise fl.Refused(f"/var has room for now, but the worker {name} (process {pid}) still writes a trace to {target}: it will fill a disk again.")
free2 = free_kib()
if free1 - free2 > 256:
    raise fl.Refused(f"/var lost {free1 - free2} KiB in a moment: something is still filling it.")
print(f"/var has {free2 // 1024} MiB free and keeps it, every worker is back at work and none traces.")
'
