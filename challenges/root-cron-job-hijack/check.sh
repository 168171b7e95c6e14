#!/bin/bash
# Grading: runs in the grader beside jobs01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of jobs01's. Both phases (live, and after a boot) judge what
# cron would run as root the next time, one python run with fl.py's functions:
#   - what cron reads is as installed (fl.pristine: bytes, mode, owner, ACLs): /etc/crontab, the
#     entries of /etc/cron.d and the run-parts folders, the user crontabs (none), and what shapes a
#     job's environment (cron's PAM stack, /etc/environment, pam_env.conf, /etc/default: its
#     `locale` is the envfile cron's PAM stack reads for every job): so the jobs are the
#     team's four, each running its script, and nothing slips a BASH_ENV or a hook in;
#   - each job's script and the settings file it sources (`. file`), and every directory on the
#     way to them (and to cron's own folders), are root's and writable by root alone as the kernel
#     decides (fl.access for every account: mode bits and ACLs), reached through no symbolic link,
#     and held open for writing or mapped shared by no process of another account (opened while it
#     could);
#   - the scripts and settings hold exactly what they held (this deployment's digest);
#   - cron runs: the system's /usr/sbin/cron, started the usual way, no hook in it.
# Environment: FL_DIGEST (the scripts' and settings' digest). The job's name in the report is the
# platform's to judge (challenge.yaml answer:).
verdict=$(python3 -I -S - <<'PY'
import hashlib, os, stat, sys
sys.path.insert(0, "/tmp")
import fl

Refused = fl.Refused
SCRIPTS = ["/opt/reports/bin/daily-report.sh", "/usr/local/sbin/tmp-cleanup", "/srv/metrics/collect.sh", "/var/lib/dbbackup/run-backup.sh"]
SOURCED = ["/opt/reports/etc/report.env", "/usr/local/etc/cleanup.conf", "/srv/metrics/collect.conf", "/etc/dbbackup/backup.conf"]
CRON = ["/etc/crontab", "/etc/cron.d", "/etc/cron.hourly", "/etc/cron.daily", "/etc/cron.weekly", "/etc/cron.monthly",
        "/etc/cron.yearly", "/var/spool/cron", "/etc/pam.d", "/etc/environment", "/etc/security/pam_env.conf", "/etc/default"]


def lstat(path):
    parent, name = path.rsplit("/", 1)
    fd, _ = fl.resolve(parent or "/", want_dir=True)
    try:
        return os.stat(name, dir_fd=fd, follow_symlinks=False)
    finally:
        os.close(fd)


def identities():
    """Every account but root, with its user id and groups, as fl.access reads them (read once:
    fl.access reads the account files at each call)."""
    members = {}
    for line in fl.read_file("/etc/group").decode("utf-8", "replace").splitlines():
        f = line.split(":")
        if len(f) >= 4 and f[2].isdigit():
            for m in f[3].split(","):
                members.setdefault(m, set()).add(int(f[2]))
    return {u: (uid, {gid} | members.get(u, set())) for u, (uid, gid) in fl._passwd().items() if uid != 0}


def root_alone(path, ids):
    """The path and every directory above it: no link, root's, and writable by no other account
    as the kernel decides (fl._allowed: mode bits and ACLs, search permission on the way, as
    fl.access). Returns what is wrong, or None."""
    parts = path.strip("/").split("/")
    reach = set(ids)
    for n in range(len(parts) + 1):
        here = "/" + "/".join(parts[:n])
        if n and stat.S_ISLNK(lstat(here).st_mode):
            return f"{here} is a symbolic link: whoever may change it, or what it points to, decides what root runs."
        fd, _ = fl.resolve(here, want_dir=n < len(parts))
        try:
            st, acl = os.fstat(fd), fl._xattrs(fd)[0]
        finally:
            os.close(fd)
        if st.st_uid != 0:
            return f"{here} belongs to {fl.user_name(st.st_uid)}, not root: its owner can change what root runs."
        # The people's accounts first (uid 1000 and up), then the system's.
        for user in sorted(reach, key=lambda u: (ids[u][0] < 1000, u)):
            bits = fl._allowed(st, acl, *ids[user])
            if bits & 2:
                how = "" if fl._allowed(st, None, *ids[user]) & 2 else " (through an ACL entry)"
                return f"{user} may write {here}{how}: whoever can write it can change what root runs."
            if not bits & 1:
                reach.discard(user)
    return None


def held_for_writing(paths):
    """A process of another account than root holding one of the files open for writing (opened
    while it could), or mapped shared (a store into a shared mapping is a write to the file, and
    one made from a descriptor opened for writing may be made writable at any time, with no
    descriptor left open): it can still change what root runs, whatever the modes say now.
    Returns (path, pid) or None. Processes are the target's (fl.target_pids), never a scan of /proc."""
    want = {}
    for p in paths:
        st = fl.stat_path(p)
        want[(st.st_dev, st.st_ino)] = p
    for pid in fl.target_pids():
        try:
            if fl.uid_of(pid) == 0:
                continue
            fds = os.listdir(f"/proc/{pid}/fd")
            with open(f"/proc/{pid}/maps") as f:
                maps = f.read().splitlines()
        except OSError:
            continue
        for line in maps:
            cols = line.split(None, 5)
            if len(cols) < 5 or cols[1][3:4] != "s" or ":" not in cols[3]:
                continue
            major, minor = (int(x, 16) for x in cols[3].split(":"))
            key = (os.makedev(major, minor), int(cols[4]))
            if key in want:
                return want[key], pid
            if len(cols) == 6 and cols[5] in want.values():
                return cols[5], pid
        for fd in fds:
            try:
                st = os.stat(f"/proc/{pid}/fd/{fd}")
                if (st.st_dev, st.st_ino) not in want:
                    continue
                with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                    flags = next(int(l.split()[1], 8) for l in f if l.startswith("flags:"))
            except (OSError, StopIteration, ValueError):
                continue
            if flags & (os.O_WRONLY | os.O_RDWR):
                return want[(st.st_dev, st.st_ino)], pid
    return None


try:
    ids = identities()
    for path in CRON:
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: the root jobs must stay as they were, where they were (make their files safe instead).")
    for path in SCRIPTS + SOURCED:
        try:
            st = lstat(path)
        except (FileNotFoundError, NotADirectoryError):
            raise Refused(f"{path} is gone: the root jobs need it. Make it safe rather than removing it.")
        if not stat.S_ISREG(st.st_mode) and not stat.S_ISLNK(st.st_mode):
            raise Refused(f"{path} is not a file any more: the root jobs need it.")
    for path in SCRIPTS + SOURCED + CRON:
        wrong = root_alone(path, ids)
        if wrong:
            raise Refused(f"A root cron job still runs or reads a file that users other than root can change: {wrong}")
    held = held_for_writing(SCRIPTS + SOURCED)
    if held:
        raise Refused(f"Process {held[1]} ({fl.user_name(fl.uid_of(held[1]))}) still holds {held[0]} open for writing (or mapped into its memory): it can change what root runs, whatever the modes say now.")
    digest = hashlib.sha256()
    for path in SCRIPTS + SOURCED:
        fd, _ = fl.resolve(path)
        try:
            for chunk in fl.stream(fd):
                digest.update(chunk)
        finally:
            os.close(fd)
    if digest.hexdigest() != os.environ["FL_DIGEST"]:
        raise Refused("The jobs' scripts or their settings are not what they were: keep what they do, change only who may write them.")
    pids = []
    for pid in fl.target_pids():
        try:
            if fl.argv(pid) == ["/usr/sbin/cron"] and fl.argv(fl.parent_of(pid)) != ["/usr/sbin/cron"]:
                pids.append(pid)
        except OSError:
            continue
    if not pids:
        raise Refused("cron is not running (service cron start): the jobs must keep running.")
    for pid in pids:
        fl.verify_process(pid, "/usr/sbin/cron", ["/usr/sbin/cron"])
    # The programs the jobs name (/usr/bin/awk is a link into /etc/alternatives) and the loader's
    # configuration: root runs what they point at.
    for path in ("/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d"):
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: it decides which programs and libraries the root jobs run.")
    # The boot's own scripts as installed: one of the player's could undo the repair minutes after
    # a boot, later than the check of the booted copy.
    for path in ("/etc/init.d", "/etc/rc.local", *(f"/etc/rc{r}.d" for r in "0123456S")):
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: a start-up script of one's own could undo the repair minutes after the next boot, later than any check. Put it back.")
    print("ok")
except Refused as e:
    print(e)
except OSError as e:
    print(f"The grader could not look at jobs01's files ({e.strerror}).")
PY
) || refuse "The grader could not look at jobs01's files."
[ "$verdict" = ok ] || refuse "$verdict"
echo "Every root job on jobs01 runs files only root can change, and the jobs still run."
