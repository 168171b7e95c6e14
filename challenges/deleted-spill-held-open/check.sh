#!/bin/bash
# Grading: runs in the grader beside tsdb01 (docs/decisions/008-grading-threat-model.md), out of
# its reach, and executes nothing of tsdb01's. Both phases (live, and a booted copy of its disk):
#   /srv has room, and no process holds a deleted file on it any more: the space came back because
#     what held it let go (a truncated spill still held by a stuck job is not that);
#   the database's blocks are where they were, byte for byte;
#   tsdbd is the system's program, running (not stopped), and its heartbeat moves; live only: it
#     was never restarted (a restart cuts its clients off, and it was not the culprit);
#   every background job runs: the system's job runner, as its script starts it, after the last
#     change of its settings, not stopped. After a boot that means every job's settings are still
#     there for the init script to start it.
# The written answer (which job, which file) is judged by the platform (challenge.yaml answer:).
# Environment: FL_JOBS, FL_BLOCKS, FL_DIGEST, FL_SETUP_AT, FL_PHASE.
#
# One Python process with fl's functions (`fl py`, fl as `fl`) does it all: each program
# start costs, on a busy host, more than the reading itself.
fl py '
import hashlib, os, re, stat, time

fd, _ = fl.resolve("/srv", want_dir=True)
try:
    s = os.fstatvfs(fd)
finally:
    os.close(fd)
free = s.f_bavail * s.f_frsize // 1024
if free < 16384:
    raise fl.Refused(f"/srv has only {free // 1024} MiB free: the space is not back yet.")
held = fl.held_deleted("/srv/")
if held:
    raise fl.Refused(f"Process {held[0]} ({held[1]}) still holds the deleted file {held[2]}: whatever its size now, what made it is stuck and the space is not really given back.")

# The database'"'"'s blocks: every one in place (a regular file, not a link elsewhere), as they were.
data, h, count = "/srv/tsdb/data", hashlib.sha256(), 0
for name in fl.list_dir(data):
    if not re.fullmatch(r"[0-9]{6}-[0-9]{6}\.blk", name):
        continue
    fd, where = fl.resolve(f"{data}/{name}")
    try:
        if where != f"{data}/{name}" or not stat.S_ISREG(os.fstat(fd).st_mode):
            raise fl.Refused(f"{data}/{name} is no longer the block file itself: the blocks must stay as they are.")
        for chunk in fl.stream(fd):
            h.update(chunk)
    finally:
        os.close(fd)
    count += 1
if (str(count), h.hexdigest()) != (os.environ["FL_BLOCKS"], os.environ["FL_DIGEST"]):
    raise fl.Refused(f"The database'"'"'s blocks in {data} are not what they were: they must be kept.")

argv = ["/bin/bash", "/usr/sbin/tsdbd"]
pids = fl.verified_processes(argv, "/usr/bin/bash")
if not pids:
    raise fl.Refused("tsdbd is not running.")
for pid, started in pids.items():
    fl.not_stopped(pid, "tsdbd")
    if os.environ["FL_PHASE"] == "live" and started >= int(os.environ["FL_SETUP_AT"]):
        raise fl.Refused("tsdbd was restarted, which cut off its clients, and it was not what held the space. Find the process that did.")

# Every job, the one that held the space too (started again, idle): each has its work to do.
for job in os.environ["FL_JOBS"].split():
    argv = ["/usr/bin/python3", "-I", "-S", "/usr/lib/tsdb/tsdb-job", job]
    pids = fl.verified_processes(argv, "/usr/bin/python3.11", [f"/etc/tsdb/jobs/{job}.conf"])
    if not pids:
        raise fl.Refused(f"The background job {job} is not running: every job must run (service tsdb-jobs status).")
    for pid in pids:
        fl.not_stopped(pid, f"The job {job}")

if not fl.heartbeat_moves(f"{data}/heartbeat"):
    raise fl.Refused(f"tsdbd runs, but its heartbeat in {data}/heartbeat is not moving.")
print(f"/srv has {free // 1024} MiB free, nothing holds a deleted file there, tsdbd kept running and writes again, and every job runs.")
'
