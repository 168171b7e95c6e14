#!/bin/bash
# Grading: runs in the grader beside ledger01 (docs/decisions/008-grading-threat-model.md), out of
# its reach, and executes nothing of ledger01's. Both phases (live, and a booted copy of its disk):
#   /srv has room, and no process holds a deleted file on it any more (the space came back
#     because what held it let go, and ledgerd does not log into a file nobody can see);
#   the journals are where they were, byte for byte (regular files in /srv/ledger/data);
#   ledgerd is the system's /usr/sbin/ledgerd, unaltered, running (not stopped), and its
#     heartbeat moves.
# Environment: FL_JOURNALS (how many) and FL_DIGEST (sha256 of them all, in name order).
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
    raise fl.Refused(f"Process {held[0]} ({held[1]}) still holds the deleted file {held[2]}: its blocks stay in use, unseen, and it will fill /srv again. Make it let go of the file (restart it).")

# The journals: every one in place (a regular file, not a link elsewhere), every byte as it was.
data, h, count = "/srv/ledger/data", hashlib.sha256(), 0
for name in fl.list_dir(data):
    if not re.fullmatch(r"journal-[0-9]{4}\.dat", name):
        continue
    fd, where = fl.resolve(f"{data}/{name}")
    try:
        if where != f"{data}/{name}" or not stat.S_ISREG(os.fstat(fd).st_mode):
            raise fl.Refused(f"{data}/{name} is no longer the journal file itself: keep the journals where they are.")
        for chunk in fl.stream(fd):
            h.update(chunk)
    finally:
        os.close(fd)
    count += 1
if (str(count), h.hexdigest()) != (os.environ["FL_JOURNALS"], os.environ["FL_DIGEST"]):
    raise fl.Refused("The journals in /srv/ledger/data are not what they were: the ledger'"'"'s data must be kept.")

# ledgerd: the system'"'"'s program (a bash script in the read-only /usr/sbin), nothing in its way.
argv = ["/bin/bash", "/usr/sbin/ledgerd"]
pids = fl.verified_processes(argv, "/usr/bin/bash")
if not pids:
    raise fl.Refused("ledgerd is not running.")
for pid in pids:
    fl.not_stopped(pid, "ledgerd")
if not fl.heartbeat_moves(f"{data}/heartbeat"):
    raise fl.Refused(f"ledgerd runs, but its heartbeat in {data}/heartbeat is not moving.")
print(f"/srv has {free // 1024} MiB free, nothing holds a deleted file there, the journals are intact and ledgerd writes its heartbeat again.")
'
