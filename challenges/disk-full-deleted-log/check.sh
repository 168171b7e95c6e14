#!/bin/bash
# Grading: runs in the grader beside ledger01 (docs/decisions/008-grading-threat-model.md), out of
# its reach, and executes nothing of ledger01's. Both phases (live, and a booted copy of its disk):
#   /srv has room, and no process holds a deleted file on it any more (the space came back
#     because what held it let go, and ledgerd does not log into a file nobody can see);
#   the journals are where they were, byte for byte (regular files in /srv/ledger/data);
#   ledgerd is the system's /usr/sbin/ledgerd, unaltered, running (not stopped), and its
#     heartbeat moves.
# Environment: FL_JOURNALS (how many) and FL_DIGEST (sha256 of them all, in name order).

# flpy CODE: Python with fl.py's functions as `fl` (loaded as a module: its command line does not
# run). A refusal prints its message and exits 1.
flpy() {
  python3 -I -S -c 'import importlib.util as u, sys
s = u.spec_from_file_location("fl", "/tmp/fl.py"); fl = u.module_from_spec(s); s.loader.exec_module(fl)
try:
    exec(sys.argv[1])
except fl.Refused as e:
    print(e); sys.exit(1)
' "$1"
}

read -r avail_kb _ < <(fl df /srv) || refuse "The grader could not measure /srv."
[ "${avail_kb:-0}" -ge 16384 ] || refuse "/srv has only $((${avail_kb:-0} / 1024)) MiB free: the space is not back yet."

# Deleted files still held under /srv, open or mapped: the space a name no longer shows.
held=$(flpy '
import os
for pid in fl.target_pids():
    try:
        links = [os.readlink(f"/proc/{pid}/fd/{n}") for n in os.listdir(f"/proc/{pid}/fd")]
        with open(f"/proc/{pid}/maps") as f:
            links += [line.split(None, 5)[5].rstrip("\n") for line in f if len(line.split(None, 5)) == 6]
        args = " ".join(fl.argv(pid))[:60]
    except OSError:
        continue  # ended meanwhile
    for link in links:
        if link.startswith("/srv/") and link.endswith(" (deleted)"):
            print(f"{pid}\t{args}\t{link}")
            break
') || refuse "The grader could not list the files the processes hold: $held"
if [ -n "$held" ]; then
  IFS=$'\t' read -r pid args link <<<"${held%%$'\n'*}"
  refuse "Process $pid ($args) still holds the deleted file $link: its blocks stay in use, unseen, and it will fill /srv again. Make it let go of the file (restart it)."
fi

# The journals: every one in place (a regular file, not a link elsewhere), every byte as it was.
journals=$(flpy '
import hashlib, os, re, stat
d = "/srv/ledger/data"
h, count = hashlib.sha256(), 0
for name in fl.list_dir(d):
    if not re.fullmatch(r"journal-[0-9]{4}\.dat", name):
        continue
    fd, where = fl.resolve(f"{d}/{name}")
    try:
        if where != f"{d}/{name}" or not stat.S_ISREG(os.fstat(fd).st_mode):
            raise fl.Refused(f"{d}/{name} is no longer the journal file itself: keep the journals where they are.")
        for chunk in fl.stream(fd):
            h.update(chunk)
    finally:
        os.close(fd)
    count += 1
print(count, h.hexdigest())
') || refuse "${journals:-The journals in /srv/ledger/data cannot be read: the ledger data must be kept.}"
if [ "$journals" != "$FL_JOURNALS $FL_DIGEST" ]; then
  refuse "The journals in /srv/ledger/data are not what they were: the ledger's data must be kept."
fi

# ledgerd: the system's program (a bash script in the read-only /usr/sbin), nothing in its way.
pids=$(fl find-argv '["/bin/bash","/usr/sbin/ledgerd"]') || refuse "$pids"
[ -n "$pids" ] || refuse "ledgerd is not running."
for pid in $pids; do
  msg=$(fl process "$pid" /usr/bin/bash --argv '["/bin/bash","/usr/sbin/ledgerd"]') || refuse "$msg"
  stat=$(<"/proc/$pid/stat") || refuse "ledgerd (process $pid) ended while the grader looked at it."
  read -r state _ <<<"${stat##*) }"
  case "$state" in T | t | Z | X) refuse "ledgerd (process $pid) is stopped: it does not work." ;; esac
done
first=$(fl read /srv/ledger/data/heartbeat 2>/dev/null || echo 0)
sleep 2.2
second=$(fl read /srv/ledger/data/heartbeat 2>/dev/null || echo 0)
if ! [ "$second" -gt "$first" ] 2>/dev/null; then
  refuse "ledgerd runs, but its heartbeat in /srv/ledger/data/heartbeat is not moving."
fi
echo "/srv has $((avail_kb / 1024)) MiB free, nothing holds a deleted file there, the journals are intact and ledgerd writes its heartbeat again."
