#!/bin/bash
# Grading: runs in the grader beside the target (docs/decisions/008-grading-threat-model.md), out
# of its reach, and executes nothing of the target's. Both phases (live, and a booted copy of its
# disk, where tallyd must come up from what is on disk):
#   the restored data is intact (its records and index, byte for byte);
#   tallyd works: the system's /usr/sbin/tallyd, unaltered, as its own unprivileged user, started
#     after the last change of its settings, not stopped, and its heartbeat moves;
#   the data is tallyd's again and nobody else's: tallyd is set to use this data directory (its
#     settings read as tallyd reads them), everything below it belongs to tallyd's user, and no
#     other account can write there or to a directory on the way (what the kernel decides: mode
#     bits, ACLs and every directory on the way).
# Environment: FL_USER, FL_DATA, FL_DIGEST, FL_INDEX.
#
# One Python process with fl's functions (`fl py`, fl as `fl`) does it all: each program
# start costs, on a busy host, more than the reading itself. (tallyd's default data directory is
# one of the deployment's possible values: like them, it reaches the grader's programs through
# the environment, never their command lines.)
FL_TALLY_DEFAULT=/var/lib/tally fl py '
import hashlib, os, re, stat, time

def digest(path, what):
    try:
        fd, where = fl.resolve(path)
    except FileNotFoundError:
        raise fl.Refused(f"The restored {what} ({path}) are gone: the data must be kept.")
    if where != path:
        os.close(fd)
        raise fl.Refused(f"The restored {what} are not in {path} any more but in {where}: keep the data where it was restored.")
    h = hashlib.sha256()
    try:
        for chunk in fl.stream(fd):
            h.update(chunk)
    finally:
        os.close(fd)
    return h.hexdigest()

data = os.environ["FL_DATA"]
# The data directory tallyd uses: /etc/default/tallyd read the way tallyd reads it (the last
# DATA_DIR= line, its value up to a blank or a #), resolved the way the kernel would.
def directory(path):
    try:
        fd, where = fl.resolve(path, want_dir=True)
    except (OSError, fl.Refused):
        return None
    os.close(fd)
    return where

try:
    lines = re.findall(r"^DATA_DIR=([^ #\n]*)", fl.read_file("/etc/default/tallyd").decode("utf-8", "replace"), re.M)
except (OSError, fl.Refused):
    lines = []
uses = directory(lines[-1] if lines and lines[-1] else os.environ["FL_TALLY_DEFAULT"])
if uses is None or uses != directory(data):
    raise fl.Refused(f"tallyd is not set to use {data} any more (DATA_DIR in /etc/default/tallyd): its restored data must stay its data.")
if (digest(f"{data}/db/records.dat", "records"), digest(f"{data}/db/records.idx", "index")) != (os.environ["FL_DIGEST"], os.environ["FL_INDEX"]):
    raise fl.Refused(f"The restored records in {data}/db were changed: the data must be kept as restored.")
if not fl.heartbeat_moves(f"{data}/db/heartbeat"):
    raise fl.Refused(f"tallyd'"'"'s heartbeat in {data}/db is not moving: it is not working. Its log says why.")

argv = ["/bin/bash", "/usr/sbin/tallyd"]
pids = fl.verified_processes(argv, "/usr/bin/bash", ["/etc/default/tallyd"])
if not pids:
    raise fl.Refused("Something writes the heartbeat, but tallyd is not running.")
for pid in pids:
    user = fl.user_name(fl.uid_of(pid))
    if user != os.environ["FL_USER"]:
        raise fl.Refused(f"tallyd runs as {user}: it must run as its own unprivileged user, the owner of its data.")
    with open(f"/proc/{pid}/stat", "rb") as f:
        if f.read().rsplit(b")", 1)[1].split()[0] in (b"T", b"t", b"Z", b"X"):
            raise fl.Refused(f"tallyd (process {pid}) is stopped: it does not work.")

# Whose the data is: owners below the data directory, and who else may write there.
user = os.environ["FL_USER"]
users = fl._passwd()
if user not in users:
    raise fl.Refused(f"There is no user {user} any more: tallyd runs as that user.")
uid = users[user][0]
fd, top = fl.resolve(os.environ["FL_DATA"], want_dir=True)
parts = [c for c in top.split("/") if c]
on_the_way = ["/" + "/".join(parts[:i]) for i in range(len(parts))]
tree, todo = [(top, os.fstat(fd))], [(fd, top)]
while todo:  # links are not followed: what is below the directory itself
    dfd, dpath = todo.pop()
    try:
        for name in os.listdir(dfd):
            st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
            path = f"{dpath}/{name}"
            if stat.S_ISDIR(st.st_mode):
                tree.append((path, st))
                todo.append((os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=dfd), path))
            elif not stat.S_ISLNK(st.st_mode):
                tree.append((path, st))
    finally:
        os.close(dfd)
for path, st in tree:
    if st.st_uid != uid:
        owner = next((n for n, (i, _) in users.items() if i == st.st_uid), f"uid {st.st_uid}, which has no account here")
        raise fl.Refused(f"{path} belongs to {owner}, not to {user}: the restore left it with the wrong owner.")
for path in on_the_way + [p for p, _ in tree]:
    for other in users:
        if other not in ("root", user) and "w" in fl.access(other, path):
            raise fl.Refused(f"{other} can write {path}: the data must be writable by {user} only, not opened to others.")
print("tallyd runs as its own user again, its data is intact and nobody else can write it.")
'
