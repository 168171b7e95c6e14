#!/bin/bash
# Grading: runs in the grader beside build02 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of build02's. The same in both phases (live, and after a boot:
# nothing here is started or cached, the files are what a reboot keeps). One python run with
# fl.py's functions (each fl call costs an interpreter start):
#   - no regular file with a set-user-ID or set-group-ID bit anywhere in build02's writable
#     directories (the read-only system cannot change), walked by descriptor, no link followed;
#   - every tool still there, its bytes this deployment's (a streaming digest, whatever the size),
#     and executable by the jobs' accounts, root and builder, as the kernel decides (mode bits,
#     ACLs and every directory on the way: fl.access), and root's alone to change (the tool and
#     every directory above it: owner, mode bits, ACLs), since the backup jobs run them as root.
# Environment: FL_TOOLS (the tools' digest). The program's name is the platform's to judge
# (challenge.yaml answer:), never the check's.
report=$(python3 -I -S - <<'PY'
import hashlib, os, stat, sys
sys.path.insert(0, "/tmp")
import fl

Refused = fl.Refused

TOOLS = ["/opt/acme-backup/bin/acme-tar", "/opt/acme-backup/bin/acme-find", "/opt/acme-backup/bin/acme-cp",
         "/usr/local/bin/logview", "/usr/local/bin/envrun", "/usr/local/bin/fastawk", "/usr/local/sbin/confedit"]
WRITABLE = ("/etc", "/var", "/root", "/home", "/tmp", "/run", "/srv", "/opt", "/usr/local", "/dev")
JOB_USERS = ("root", "builder")
budget = [300000]


def root_alone(path, ids):
    """The tool and every directory above it: root's, and writable by no other account as the
    kernel decides (fl._allowed: mode bits and ACLs, search permission on the way). The backup
    jobs run the tools as root: whoever may change one has root. Returns what is wrong, or None."""
    parts = path.strip("/").split("/")
    reach = set(ids)
    for n in range(len(parts) + 1):
        here = "/" + "/".join(parts[:n])
        fd, _ = fl.resolve(here, want_dir=n < len(parts))
        try:
            st, acl = os.fstat(fd), fl._xattrs(fd)[0]
        finally:
            os.close(fd)
        if st.st_uid != 0:
            return f"{here} belongs to {fl.user_name(st.st_uid)}, not root"
        for user in sorted(reach, key=lambda u: (ids[u][0] < 1000, u)):
            bits = fl._allowed(st, acl, *ids[user])
            if bits & 2:
                return f"{user} may write {here}"
            if not bits & 1:
                reach.discard(user)
    return None


def walk(fd, path):
    fl.setid_below(fd, "A program on build02 still runs with its owner's or its group's privileges for whoever starts it (a set-user-ID or set-group-ID bit).", "There are too many files on build02 for the grader to look at.", budget)


with fl.verdict("The grader could not look at build02's files"):
    for top in WRITABLE:
        try:
            fd, canonical = fl.resolve(top, want_dir=True)
        except (FileNotFoundError, NotADirectoryError):
            continue
        try:
            walk(fd, canonical.rstrip("/"))
        finally:
            os.close(fd)
    digest = hashlib.sha256()
    ids = fl.other_accounts()
    for tool in TOOLS:
        try:
            fd, _ = fl.resolve(tool)
        except (FileNotFoundError, NotADirectoryError):
            raise fl.Refused(f"{tool} is gone: the jobs still need it. Take the privilege away, not the tool.")
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise fl.Refused(f"{tool} is not the program it was: the jobs still need it, unchanged.")
            for chunk in fl.stream(fd):
                digest.update(chunk)
        finally:
            os.close(fd)
        for user in JOB_USERS:
            if "x" not in fl.access(user, tool):
                raise fl.Refused(f"{tool} cannot be executed by {user} any more: the jobs still need to run it.")
        wrong = root_alone(tool, ids)
        if wrong:
            raise fl.Refused(f"The backup jobs run {tool} as root, but {wrong}: whoever can change the program has root's privileges. Keep the tools root's.")
    if digest.hexdigest() != os.environ["FL_TOOLS"]:
        raise fl.Refused("The tools in /opt/acme-backup/bin and /usr/local are not the ones the jobs were set up with: keep them unchanged.")
    # The boot's own scripts as installed (a script of one's own could undo the repair later).
    fl.boot_scripts_pristine()
PY
) || refuse "The grader could not look at build02's files."
[ "$report" = ok ] || refuse "$report"
echo "No program on build02 hands out privileges any more, and every tool is still in place for the jobs."
