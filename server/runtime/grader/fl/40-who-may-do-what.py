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


