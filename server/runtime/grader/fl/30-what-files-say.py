# ------------------------------------------------------------------ what the target's files say

ACL_XATTRS = ("system.posix_acl_access", "system.posix_acl_default")


def _xattrs(fd_or_path):
    """The ACL attributes of a file (bytes or None each): what `getfacl` adds to the mode bits."""
    found = []
    for name in ACL_XATTRS:
        try:
            found.append(os.getxattr(fd_or_path, name))
        except OSError as e:
            if e.errno not in (errno.ENODATA, errno.ENOTSUP, errno.EOPNOTSUPP):
                raise
            found.append(None)
    return found


def stream(fd, chunk=1 << 20):
    """Every byte of an open regular file, whatever its size (holes read as zeros)."""
    offset = 0
    while True:
        data = os.pread(fd, chunk, offset)
        if not data:
            return
        yield data
        offset += len(data)


def digest_of(*paths):
    """sha256 of every byte of the target's files, one after the other, whatever their size."""
    digest = hashlib.sha256()
    for path in paths:
        fd, _ = resolve(path)
        try:
            for chunk in stream(fd):
                digest.update(chunk)
        finally:
            os.close(fd)
    return digest.hexdigest()


def data_segments(fd, chunk=1 << 20):
    """The data of a file without its holes, as (offset, bytes): a sparse file of any apparent
    size costs only what it holds."""
    size = os.fstat(fd).st_size
    offset = 0
    while offset < size:
        try:
            start = os.lseek(fd, offset, os.SEEK_DATA)
        except OSError as e:
            if e.errno == errno.ENXIO:
                return
            raise
        end = os.lseek(fd, start, os.SEEK_HOLE)
        pos = start
        while pos < end:
            data = os.pread(fd, min(chunk, end - pos), pos)
            if not data:
                return
            yield pos, data
            pos += len(data)
        offset = end


def contains(fd, needles):
    """Whether the file holds one of `needles` (bytes) anywhere, across chunk and hole borders."""
    if not needles:
        return False
    keep = max(len(n) for n in needles) - 1
    tail, last_end = b"", None
    for offset, data in data_segments(fd):
        if last_end is not None and offset != last_end:
            tail = b""  # a hole (zeros) lies between: no needle of ours is made of zeros
        window = tail + data
        if any(n in window for n in needles):
            return True
        tail = window[-keep:] if keep else b""
        last_end = offset + len(data)
    return False


def walk_files(top):
    """Regular files below `top` in the target (never following links), as (path, fd): the caller
    closes nothing, each fd is closed when the next one is produced."""
    try:
        fd, canonical = resolve(top, want_dir=True)
    except NotADirectoryError:
        fd, canonical = resolve(top)
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                yield canonical, fd
        finally:
            os.close(fd)
        return
    stack = [(fd, canonical)]
    while stack:
        dfd, dpath = stack.pop()
        try:
            for name in sorted(os.listdir(dfd)):
                try:
                    st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
                except FileNotFoundError:
                    continue
                path = f"{dpath.rstrip('/')}/{name}"
                if stat.S_ISDIR(st.st_mode):
                    try:
                        stack.append((os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=dfd), path))
                    except FileNotFoundError:
                        continue
                elif stat.S_ISREG(st.st_mode):
                    try:
                        ffd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dfd)
                    except FileNotFoundError:
                        continue
                    try:
                        yield path, ffd
                    finally:
                        os.close(ffd)
        finally:
            os.close(dfd)


def _same_file(path, mine_st, theirs_fd, theirs_st):
    """Byte for byte, mode, owner and ACLs: what a program reading it or a user opening it sees."""
    if stat.S_IMODE(mine_st.st_mode) != stat.S_IMODE(theirs_st.st_mode) or (mine_st.st_uid, mine_st.st_gid) != (theirs_st.st_uid, theirs_st.st_gid):
        return False
    if mine_st.st_size != theirs_st.st_size:
        return False
    if _xattrs(path) != _xattrs(theirs_fd):
        return False
    with open(path, "rb") as f:
        offset = 0
        for theirs in stream(theirs_fd):
            if f.read(len(theirs)) != theirs:
                return False
            offset += len(theirs)
        return f.read(1) == b""


def pristine(path):
    """Refuses unless `path` in the target (a file, a link or a directory and all below it) is the
    image's original exactly (the grader has it at the same path in its own read-only /etc): the
    same bytes, mode, owner and ACLs. No normalisation: a comment to one reader is text to another."""
    differs = Refused(f"{path} differs from the original installation: it is not part of the fault, put it back.")
    try:
        own = os.lstat(path)
    except FileNotFoundError:
        own = None
    try:
        fd, _ = _open_nofollow_last(path)
    except FileNotFoundError:
        fd = None
    if own is None or fd is None:
        if fd is not None:
            os.close(fd)
        if own is None and fd is None:
            return
        raise differs
    try:
        theirs = os.fstat(fd)
        if stat.S_IFMT(own.st_mode) != stat.S_IFMT(theirs.st_mode):
            raise differs
        if stat.S_ISLNK(own.st_mode):
            parent, name = path.rsplit("/", 1)
            pfd, _ = resolve(parent or "/", want_dir=True)
            try:
                if os.readlink(name, dir_fd=pfd) != os.readlink(path):
                    raise differs
            finally:
                os.close(pfd)
            return
        if stat.S_ISDIR(own.st_mode):
            if stat.S_IMODE(own.st_mode) != stat.S_IMODE(theirs.st_mode) or (own.st_uid, own.st_gid) != (theirs.st_uid, theirs.st_gid):
                raise differs
            if _xattrs(path) != _xattrs(fd) or sorted(os.listdir(path)) != sorted(os.listdir(fd)):
                raise differs
            names = sorted(os.listdir(path))
        elif stat.S_ISREG(own.st_mode):
            if not _same_file(path, own, fd, theirs):
                raise differs
            return
        else:
            raise differs
    finally:
        os.close(fd)
    for name in names:
        pristine(f"{path.rstrip('/')}/{name}")


def boot_scripts_pristine():
    """Refuses unless the boot's own scripts are as installed (what the boot runs, and the
    shutdown: server/runtime/grader/boot.sh): one of the player's could undo the repair minutes
    after a boot, later than the check of the booted copy."""
    for path in ("/etc/init.d", "/etc/rc.local", *(f"/etc/rc{r}.d" for r in "0123456S")):
        try:
            pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: a start-up script of one's own could undo the repair minutes after the next boot, later than any check. Put it back.")


def _open_nofollow_last(path):
    """Opens `path` in the target resolving every component but the last by hand (a link at the
    end is opened as the link itself: O_PATH)."""
    parent, name = path.rstrip("/").rsplit("/", 1)
    pfd, _ = resolve(parent or "/", want_dir=True)
    try:
        st = os.stat(name, dir_fd=pfd, follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            return os.open(name, os.O_PATH | os.O_NOFOLLOW, dir_fd=pfd), path
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | (os.O_DIRECTORY if stat.S_ISDIR(st.st_mode) else 0)
        return os.open(name, flags, dir_fd=pfd), path
    finally:
        os.close(pfd)


# Comments as each program reads them. Only what the program itself skips is left out; where a
# format is not listed, compare the bytes (pristine, sha256) or ask the program (inspect.sh).
def _lines_without(comment):
    def norm(text):
        kept = []
        for line in text.splitlines():
            if comment(line.lstrip(" \t")):
                continue
            words = line.split()
            if words:
                kept.append(" ".join(words))
        return "\n".join(kept)
    return norm


# cron (cron's load_entry): a line whose first non-blank character is '#' is a comment; a '#'
# anywhere else is part of the command. iptables-restore and ld.so.conf: the same rule.
_lines = _lines_without(lambda line: line.startswith("#"))
# Python's configparser (our services' configuration): '#' or ';' first on a line.
_ini = _lines_without(lambda line: line.startswith(("#", ";")))


def _nginx(text):
    """nginx's ngx_conf_read_token: tokens split by blanks, ';', '{' and '}'; '#' starts a comment
    only where a token starts; quotes and backslash escapes keep what they hold in one token."""
    tokens, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif c in ";{}":
            tokens.append(c)
            i += 1
        elif c in "\"'":
            j, word = i + 1, []
            while j < n and text[j] != c:
                if text[j] == "\\" and j + 1 < n:
                    word.append(text[j:j + 2])
                    j += 2
                    continue
                word.append(text[j])
                j += 1
            tokens.append(c + "".join(word) + c)
            i = j + 1
        else:
            j = i
            while j < n and text[j] not in " \t\r\n;{}":
                if text[j] == "\\" and j + 1 < n:
                    j += 2
                    continue
                j += 1
            tokens.append(text[i:j])
            i = j
    return " ".join(tokens)


FORMATS = {"lines": _lines, "crontab": _lines, "iptables": _lines, "ini": _ini, "nginx": _nginx}


def normalized(path, fmt, image=False):
    """The target's file (or, with image=True, the image's original that the grader has at the
    same path) as its program reads it."""
    if fmt not in FORMATS:
        raise Refused(f"internal: no format {fmt!r} (one of {', '.join(sorted(FORMATS))})")
    if image:
        with open(path, "rb") as f:
            data = f.read(MAX_READ)
    else:
        data = read_file(path)
    return FORMATS[fmt](data.decode("utf-8", "replace"))


