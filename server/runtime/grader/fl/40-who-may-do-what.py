# ------------------------------------------------------------------ who may do what

def _passwd():
    users = {}
    for line in read_file("/etc/passwd").decode("utf-8", "replace").splitlines():
        f = line.split(":")
        if len(f) >= 7 and f[2].isdigit() and f[3].isdigit() and f[0] not in users:
            users[f[0]] = (int(f[2]), int(f[3]))
    return users


def _groups_of(user, gid):
    gids = {gid}
    for line in read_file("/etc/group").decode("utf-8", "replace").splitlines():
        f = line.split(":")
        if len(f) >= 4 and f[2].isdigit() and user in f[3].split(","):
            gids.add(int(f[2]))
    return gids


def _acl_entries(raw):
    """POSIX ACL xattr (version 2): [(tag, perm, id)]."""
    if not raw:
        return []
    entries = []
    for i in range(4, len(raw) - 7, 8):
        tag, perm, ident = int.from_bytes(raw[i:i + 2], "little"), int.from_bytes(raw[i + 2:i + 4], "little"), int.from_bytes(raw[i + 4:i + 8], "little")
        entries.append((tag, perm, ident))
    return entries


ACL_USER_OBJ, ACL_USER, ACL_GROUP_OBJ, ACL_GROUP, ACL_MASK, ACL_OTHER = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20


def _allowed(st, acl, uid, gids):
    """The kernel's permission bits for uid/gids on one inode (fs/namei.c acl_permission_check and
    posix_acl_permission): owner, then named users, then groups (masked), then others."""
    mode = st.st_mode
    if uid == 0:
        return 7 if stat.S_ISDIR(mode) or mode & 0o111 else 6
    entries = _acl_entries(acl)
    if not entries:
        if uid == st.st_uid:
            return (mode >> 6) & 7
        if st.st_gid in gids:
            return (mode >> 3) & 7
        return mode & 7
    mask = next((p for t, p, _ in entries if t == ACL_MASK), 7)
    if uid == st.st_uid:
        return next(p for t, p, _ in entries if t == ACL_USER_OBJ)
    for t, p, ident in entries:
        if t == ACL_USER and ident == uid:
            return p & mask
    found, perm = False, 0
    for t, p, ident in entries:
        if (t == ACL_GROUP_OBJ and st.st_gid in gids) or (t == ACL_GROUP and ident in gids):
            found, perm = True, perm | p
    if found:
        return perm & mask
    return next((p for t, p, _ in entries if t == ACL_OTHER), 0)


def access(user, path):
    """What `user` may do with `path` in the target: "r", "w", "x" as the kernel would decide,
    ACLs included, with search permission on every directory on the way."""
    users = _passwd()
    if user not in users:
        raise Refused(f"There is no user {user} on the system.")
    uid, gid = users[user]
    gids = _groups_of(user, gid)
    fd, canonical = resolve(path)
    os.close(fd)
    parts = [c for c in canonical.split("/") if c]
    for i in range(len(parts)):
        d = "/" + "/".join(parts[:i])
        fd, _ = resolve(d, want_dir=True)
        try:
            if not _allowed(os.fstat(fd), _xattrs(fd)[0], uid, gids) & 1:
                return ""
        finally:
            os.close(fd)
    fd, _ = resolve(path)
    try:
        bits = _allowed(os.fstat(fd), _xattrs(fd)[0], uid, gids)
    finally:
        os.close(fd)
    return ("r" if bits & 4 else "") + ("w" if bits & 2 else "") + ("x" if bits & 1 else "")


# What root runs, out of every other account's reach (the cron challenges' question, asked of
# each job's script, the files it sources and every directory on the way to them).


def lstat_nofollow(path):
    """The path's own status (a link's, not what it points to); its parent reached by resolve()."""
    parent, name = path.rsplit("/", 1)
    fd, _ = resolve(parent or "/", want_dir=True)
    try:
        return os.stat(name, dir_fd=fd, follow_symlinks=False)
    finally:
        os.close(fd)


def other_accounts():
    """Every account but root: {name: (user id, group ids)}, as access() reads them (read once:
    access() reads the account files at each call)."""
    members = {}
    for line in read_file("/etc/group").decode("utf-8", "replace").splitlines():
        f = line.split(":")
        if len(f) >= 4 and f[2].isdigit():
            for m in f[3].split(","):
                members.setdefault(m, set()).add(int(f[2]))
    return {u: (uid, {gid} | members.get(u, set())) for u, (uid, gid) in _passwd().items() if uid != 0}


def root_alone(path, ids):
    """The path and every directory above it: no link, root's, and writable by no other account
    as the kernel decides (_allowed: mode bits and ACLs, search permission on the way, as
    access()), for `ids` from other_accounts(). Returns what is wrong, or None."""
    parts = path.strip("/").split("/")
    reach = set(ids)
    for n in range(len(parts) + 1):
        here = "/" + "/".join(parts[:n])
        if n and stat.S_ISLNK(lstat_nofollow(here).st_mode):
            return f"{here} is a symbolic link: whoever may change it, or what it points to, decides what root runs."
        fd, _ = resolve(here, want_dir=n < len(parts))
        try:
            st, acl = os.fstat(fd), _xattrs(fd)[0]
        finally:
            os.close(fd)
        if st.st_uid != 0:
            return f"{here} belongs to {user_name(st.st_uid)}, not root: its owner can change what root runs."
        # The people's accounts first (uid 1000 and up), then the system's.
        for user in sorted(reach, key=lambda u: (ids[u][0] < 1000, u)):
            bits = _allowed(st, acl, *ids[user])
            if bits & 2:
                how = "" if _allowed(st, None, *ids[user]) & 2 else " (through an ACL entry)"
                return f"{user} may write {here}{how}: whoever can write it can change what root runs."
            if not bits & 1:
                reach.discard(user)
    return None


def held_for_writing(paths):
    """A process of another account than root holding one of the files open for writing (opened
    while it could), or mapped shared (a store into a shared mapping is a write to the file, and
    one made from a descriptor opened for writing may be made writable at any time, with no
    descriptor left open): it can still change what root runs, whatever the modes say now.
    Returns (path, pid) or None. Processes are the target's (target_pids), never a scan of /proc."""
    want = {}
    for p in paths:
        st = stat_path(p)
        want[(st.st_dev, st.st_ino)] = p
    for pid in target_pids():
        try:
            if uid_of(pid) == 0:
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


def setid_below(fd, found, too_many, budget):
    """Refuses with `found` when a regular file below the open directory `fd` (links not followed)
    has a set-user-ID or set-group-ID bit, and with `too_many` once more names than budget[0] were
    read (a one-item list, spent across calls)."""
    for name in os.listdir(fd):
        budget[0] -= 1
        if budget[0] < 0:
            raise Refused(too_many)
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            continue
        if stat.S_ISDIR(st.st_mode):
            try:
                sub = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=fd)
            except FileNotFoundError:
                continue
            try:
                setid_below(sub, found, too_many, budget)
            finally:
                os.close(sub)
        elif stat.S_ISREG(st.st_mode) and st.st_mode & (stat.S_ISUID | stat.S_ISGID):
            raise Refused(found)


def open_file_holding(pid, fds, needles, deleted_only=False):
    """The first of the process's descriptors (`fds`, names in /proc/PID/fd) open on a regular file
    that holds one of `needles` anywhere, whatever its size; None when none does. deleted_only:
    only files no longer linked anywhere."""
    for n in fds:
        try:
            st = os.stat(f"/proc/{pid}/fd/{n}")
            if not stat.S_ISREG(st.st_mode) or (deleted_only and st.st_nlink):
                continue
            f = os.open(f"/proc/{pid}/fd/{n}", os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            if contains(f, needles):
                return n
        finally:
            os.close(f)
    return None


def only_root_may_change(path, why):
    """Refuses unless only root may change `path`: the file and every directory above it (links
    resolved) root's, writable by nobody else, with no ACL. The refusal names where, then `why`."""
    fd, canonical = resolve(path)
    os.close(fd)
    parts = canonical.strip("/").split("/")
    for i in range(len(parts) + 1):
        where = "/" + "/".join(parts[:i])
        fd, _ = resolve(where, want_dir=i < len(parts))
        try:
            st, acl = os.fstat(fd), _acl_entries(_xattrs(fd)[0])
        finally:
            os.close(fd)
        if st.st_uid != 0 or st.st_mode & 0o022 or acl:
            raise Refused(f"{path} is not root's alone to change ({where}: owner, mode or ACL): {why}")
