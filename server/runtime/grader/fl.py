# fl: the grader's view of a target, for check.sh (docs/decisions/008-grading-threat-model.md).
#
# Runs in the grader container: the challenge's read-only image (the platform's binaries, its own
# /etc, /usr/local and loader cache), started with `python3 -I -S` (no site hooks, no PYTHON*
# variables), in the host's PID namespace, where the target cannot see it. FL_TARGET_PID names
# the target's init by its host PID: /proc/<it>/root is the target's filesystem, /proc/<it>/net
# its sockets, and the target's processes are those in its PID namespace. Nothing here executes
# a file of the target.
#
# Rules that make it trustworthy against a root user inside the target:
# - Paths are resolved by hand, one component at a time with O_NOFOLLOW below a descriptor of the
#   target's root: an absolute symlink resolves inside the target (never to the grader's own
#   pristine files) and ".." never climbs out of it.
# - A process is "the real service" when its executable and every file it maps come from the
#   target's read-only root filesystem (same device as the root), its arguments are the expected
#   ones, its environment names no loader or interpreter hook, and the configuration it read at
#   start has not changed since (ctime, which a root user cannot set back, against start time).
# - Anything unexpected fails: exit 1 with one honest line for the user.
import errno
import hashlib
import json
import os
import re
import stat
import sys
import time

TARGET_PID = int(os.environ.get("FL_TARGET_PID", "1"))
TARGET_ROOT = f"/proc/{TARGET_PID}/root"
TARGET_NET = f"/proc/{TARGET_PID}/net"
# What `read` prints into a check's variable; streaming commands (sha256, contains, pristine) read
# every byte whatever the size.
MAX_READ = 4 * 1024 * 1024
# A configuration changed this long after a process started was changed after it read it. Start
# times are whole kernel ticks (10 ms, rounded down) and file times come from the coarse clock
# (a few ms behind): an honest edit-then-restart never lands above this margin.
CTIME_MARGIN = 0.05
# Variables that make a loader, a shell or an interpreter run code of the user's choosing.
HOOK_ENV = re.compile(
    rb"^(LD_[A-Z_]+|BASH_ENV|ENV|BASH_FUNC_.*|SHELLOPTS|BASHOPTS|PS4|PYTHON[A-Z_]*|PERL5[A-Z_]*|PERLLIB|RUBY[A-Z_]*"
    rb"|NODE_OPTIONS|NODE_PATH|GCONV_PATH|LOCPATH|NLSPATH|MALLOC_[A-Z_]+|GLIBC_TUNABLES|HOSTALIASES|LOCALDOMAIN|RES_OPTIONS)="
)


# How the kernel names shared anonymous memory in maps (nginx's shared zones): no file behind it.
SHARED_ANONYMOUS = {"/dev/zero (deleted)", "/SYSV00000000 (deleted)"}


class Refused(Exception):
    """Grading cannot go on: the message is shown to the user."""


# ------------------------------------------------------------------ the target's filesystem

def _root_fd():
    try:
        return os.open(TARGET_ROOT, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as e:
        raise Refused(f"The grader cannot see the deployment's files ({e.strerror}).")


def resolve(path, want_dir=False):
    """Opens `path` as the target sees it; returns (fd, canonical path). Raises FileNotFoundError."""
    if not path.startswith("/"):
        raise Refused(f"internal: {path} is not absolute")
    root = _root_fd()
    stack = []  # canonical components so far
    todo = [c for c in path.split("/") if c]
    links = 0
    fd = os.dup(root)
    try:
        while todo:
            name = todo.pop(0)
            if name == ".":
                continue
            if name == "..":
                if stack:
                    stack.pop()
                os.close(fd)
                fd = _walk(root, stack)
                continue
            last = not todo
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                links += 1
                if links > 40:
                    raise OSError(errno.ELOOP, "too many symbolic links", path)
                target = os.readlink(name, dir_fd=fd)
                todo = [c for c in target.split("/") if c] + todo
                if target.startswith("/"):
                    stack = []
                    os.close(fd)
                    fd = os.dup(root)
                continue
            if last and not want_dir and not stat.S_ISDIR(st.st_mode):
                nfd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
            else:
                nfd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nfd
            stack.append(name)
        return fd, "/" + "/".join(stack)
    except FileNotFoundError:
        os.close(fd)
        raise FileNotFoundError(errno.ENOENT, "not found", path)
    except BaseException:
        os.close(fd)
        raise
    finally:
        os.close(root)


def _walk(root, stack):
    fd = os.dup(root)
    for name in stack:
        nfd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nfd
    return fd


def read_file(path):
    fd, _ = resolve(path)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"{path} is not a regular file.")
        chunks, size = [], 0
        while size <= MAX_READ:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_READ:
            raise Refused(f"{path} is larger than the grader reads ({MAX_READ // 1048576} MiB).")
        return b"".join(chunks)
    finally:
        os.close(fd)


def stat_path(path, want_dir=False):
    fd, _ = resolve(path, want_dir)
    try:
        return os.fstat(fd)
    finally:
        os.close(fd)


def list_dir(path):
    fd, _ = resolve(path, want_dir=True)
    try:
        return sorted(os.listdir(fd))
    finally:
        os.close(fd)


def root_device():
    return os.stat(TARGET_ROOT + "/").st_dev


# ------------------------------------------------------------------ the target's processes

def _pid_namespace(pid):
    return os.readlink(f"/proc/{pid}/ns/pid")


def target_pids():
    """Processes of the target: those in its PID namespace. Where the grader shares that namespace
    (gVisor, where the host cannot see inside the sandbox), its own processes are left out by
    their cgroup."""
    want = _pid_namespace(TARGET_PID)
    shared = _pid_namespace("self") == want
    if shared:
        with open("/proc/self/cgroup", "rb") as f:
            own = f.read()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if _pid_namespace(entry) != want:
                continue
            if shared:
                with open(f"/proc/{entry}/cgroup", "rb") as f:
                    if f.read() == own:
                        continue
        except OSError:
            continue
        pids.append(int(entry))
    return sorted(pids)


def is_target(pid):
    try:
        return int(pid) in target_pids()
    except (OSError, ValueError):
        return False


def argv(pid):
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        raw = f.read()
    return [a.decode("utf-8", "replace") for a in raw.rstrip(b"\0").split(b"\0")] if raw else []


def exe(pid):
    return os.readlink(f"/proc/{pid}/exe")


def start_time(pid):
    """When the process started, in seconds since the epoch, rounded DOWN to the kernel's tick.
    The boot time comes from the clocks (not /proc/stat's whole seconds) so that a file changed
    even a little after the start is seen as changed after it."""
    with open(f"/proc/{pid}/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    ticks = int(fields[19])
    boot = time.clock_gettime(time.CLOCK_REALTIME) - time.clock_gettime(time.CLOCK_BOOTTIME)
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def parent_of(pid):
    with open(f"/proc/{pid}/stat", "rb") as f:
        return int(f.read().rsplit(b")", 1)[1].split()[1])


def uid_of(pid):
    with open(f"/proc/{pid}/status", "rb") as f:
        for line in f:
            if line.startswith(b"Uid:"):
                return int(line.split()[1])
    return -1


def user_name(uid):
    try:
        for line in read_file("/etc/passwd").decode("utf-8", "replace").splitlines():
            parts = line.split(":")
            if len(parts) > 2 and parts[2] == str(uid):
                return parts[0]
    except (OSError, Refused):
        pass
    return str(uid)


def listeners(port=None):
    """Listening TCP sockets of the target's network namespace: [(address, port, inode)]."""
    found = []
    for table in ("tcp", "tcp6"):
        try:
            with open(f"{TARGET_NET}/{table}") as f:
                next(f)
                for line in f:
                    cols = line.split()
                    if cols[3] != "0A":  # LISTEN
                        continue
                    addr, hexport = cols[1].rsplit(":", 1)
                    if port is None or int(hexport, 16) == port:
                        found.append((_address(addr), int(hexport, 16), int(cols[9])))
        except FileNotFoundError:
            continue
    return found


def _address(hexaddr):
    raw = bytes.fromhex(hexaddr)
    if len(raw) == 4:
        return ".".join(str(b) for b in raw[::-1])
    words = [raw[i:i + 4][::-1] for i in range(0, 16, 4)]
    return ":".join(b.hex() for b in words)


# The engine's embedded DNS listens inside every container's network namespace (owned by dockerd).
ENGINE_DNS = "127.0.0.11"


def quiet_net(allowed):
    """Refuses any listening socket on a port not in `allowed` ("80", "udp:53") and any raw or
    packet socket: what a player with NET_ADMIN could use to answer in a service's place."""
    for table, proto, state in (("tcp", "tcp", "0A"), ("tcp6", "tcp", "0A"), ("udp", "udp", "07"), ("udp6", "udp", "07")):
        try:
            with open(f"{TARGET_NET}/{table}") as f:
                next(f)
                rows = [line.split() for line in f]
        except FileNotFoundError:
            continue
        for cols in rows:
            if cols[3] != state:
                continue
            addr, hexport = cols[1].rsplit(":", 1)
            address, port = _address(addr), int(hexport, 16)
            if address == ENGINE_DNS:
                continue
            name = str(port) if proto == "tcp" else f"udp:{port}"
            if name not in allowed:
                owners = socket_owners(int(cols[9]))
                raise Refused(f"Something else listens on {proto} port {port} ({address}, process {' '.join(map(str, owners)) or '?'}): only the service belongs on this host.")
    for table in ("raw", "raw6", "packet"):
        try:
            with open(f"{TARGET_NET}/{table}") as f:
                if len(f.read().strip().splitlines()) > 1:
                    raise Refused("A process holds a raw network socket: grading does not trust a host that can answer in a service's place.")
        except FileNotFoundError:
            continue


def socket_owners(inode):
    needle = f"socket:[{inode}]"
    owners = []
    for pid in target_pids():
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == needle:
                        owners.append(pid)
                        break
                except OSError:
                    continue
        except OSError:
            continue
    return owners


def verify_process(pid, want_exe, want_argv=None, configs=()):
    """Refuses unless `pid` is `want_exe` from the read-only image, unaltered (see the header)."""
    label = f"process {pid}"
    if not is_target(pid):
        raise Refused(f"Process {pid} is not one of the deployment's processes.")
    try:
        path = exe(pid)
        args = argv(pid)
        label = f"process {pid} ({' '.join(args)[:80] or path})"
        exe_st = os.stat(f"/proc/{pid}/exe")
        with open(f"/proc/{pid}/maps") as f:
            maps = f.read().splitlines()
        with open(f"/proc/{pid}/environ", "rb") as f:
            environ = f.read().split(b"\0")
    except OSError as e:
        raise Refused(f"The grader cannot inspect {label}: {e.strerror}.")
    rdev = root_device()
    if path != want_exe or exe_st.st_dev != rdev:
        raise Refused(f"{label} is {path}, not {want_exe} from the system's read-only files.")
    try:
        image_st = stat_path(want_exe)
    except OSError:
        raise Refused(f"{want_exe} is missing from the system.")
    if (image_st.st_dev, image_st.st_ino) != (exe_st.st_dev, exe_st.st_ino):
        raise Refused(f"{label} does not run the system's {want_exe}.")
    for line in maps:
        cols = line.split(None, 5)
        if len(cols) < 6 or cols[4] == "0" or not cols[5].startswith("/"):
            continue
        major, minor = (int(x, 16) for x in cols[3].split(":"))
        if cols[5] in SHARED_ANONYMOUS and "x" not in cols[1]:
            continue
        if os.makedev(major, minor) != rdev or cols[5].endswith(" (deleted)"):
            raise Refused(f"{label} has {cols[5]} loaded, which is not one of the system's read-only files.")
    for var in environ:
        if HOOK_ENV.match(var):
            name = var.split(b"=", 1)[0].decode("utf-8", "replace")
            raise Refused(f"{label} runs with {name} set in its environment: grading does not trust it.")
    if want_argv is not None and args != want_argv:
        raise Refused(f"{label} was not started the way the service is started ({' '.join(want_argv)}).")
    started = start_time(pid)
    for conf in configs:
        try:
            changed = stat_path(conf).st_ctime
        except FileNotFoundError:
            continue
        if changed > started + CTIME_MARGIN:
            raise Refused(f"{conf} changed after {label} started: restart the service so it runs with what is on disk.")
    return started


def verify_listener(port, want_exe, argvs, configs=()):
    """Every socket listening on `port` belongs only to verified processes; returns the pids."""
    socks = listeners(port)
    if not socks:
        raise Refused(f"Nothing listens on port {port}.")
    pids = set()
    for addr, _, inode in socks:
        owners = socket_owners(inode)
        if not owners:
            raise Refused(f"The grader cannot tell which process listens on {addr}:{port}.")
        for pid in owners:
            try:
                args = argv(pid)
                if not any(a == args for a in argvs):
                    raise Refused(
                        f"Port {port} ({addr}) is held by process {pid} ({' '.join(args)[:80] or '?'}), "
                        f"which is not the service started the usual way."
                    )
                verify_process(pid, want_exe, None, configs)
            except (Refused, OSError):
                # A fork of the service holds the socket for a moment before it execs or exits;
                # a process that still holds it a little later is judged as it is.
                time.sleep(0.3)
                if pid in socket_owners(inode):
                    raise
                continue
            pids.add(pid)
    if not pids:
        raise Refused(f"The grader cannot tell which process listens on port {port}.")
    return sorted(pids)


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


# ------------------------------------------------------------------ the network, as its kernel holds it

# What `ip rule` holds on a host nobody changed (whitespace aside).
DEFAULT_RULES = {"0: from all lookup local", "32766: from all lookup main", "32767: from all lookup default"}


def _netstate():
    """FL_NETSTATE (netstate.sh, read from inside the host's network namespace) by section."""
    text = os.environ.get("FL_NETSTATE")
    if text is None:
        raise Refused("The grader has no account of this host's network stack: not graded.")
    sections, name = {}, None
    for line in text.splitlines():
        if line.startswith("== "):
            name = line[3:].strip()
            sections[name] = []
        elif name:
            sections[name].append(line)
    if "end" not in sections:
        raise Refused("The grader's account of this host's network stack is incomplete: not graded.")
    return sections


def network_as_built(firewall=None):
    """Refuses a network stack that treats some hosts of the network differently from what the
    check judges: policy rules, traffic control, fixed neighbour entries, an interface without
    ARP, a route (any table, any rule) that sends replies to a neighbour elsewhere or drops its
    packets on arrival, and any packet filter, whatever made it, but the table `firewall`
    ((family, table), e.g. ("ip", "filter"), whose rules the check judges itself from
    iptables-save's account: returned). For the challenges whose player holds NET_ADMIN."""
    s = _netstate()
    for family in ("rules4", "rules6"):
        for line in s.get(family, []):
            rule = " ".join(line.split())
            if rule and rule not in DEFAULT_RULES and "not supported" not in rule:
                raise Refused(f"A routing policy rule is in force ({rule}): it decides where some packets go before any route does. Remove it.")
    for line in s.get("qdisc", []):
        words = line.split()
        if len(words) > 1 and words[1] != "noqueue":
            raise Refused(f"Traffic control is set on this host ({' '.join(words[:6])}): it can delay, drop or redirect some hosts' packets. Remove it.")
    self_dev = next((line.strip() for line in s.get("dev", []) if line.strip()), None)
    if not self_dev:
        raise Refused("This host's address on the network is on none of its interfaces: the other hosts cannot reach it.")
    routes = s.get("routes", [])
    if not routes:
        raise Refused("The grader could not ask this host's kernel where its packets go: not graded.")
    for line in routes:
        way, peer, answer = (line.split(" ", 2) + ["", ""])[:3]
        words = answer.split()
        if way == "out":
            ok = words[:1] == [peer] and "dev" in words and "via" not in words
            dev = words[words.index("dev") + 1] if ok and words.index("dev") + 1 < len(words) else None
            ok = ok and dev == self_dev
            if not ok:
                raise Refused(f"Replies to {peer}, another host of the network, do not go straight to it: the kernel says \"{answer.strip()[:120]}\".")
        elif way == "in":
            if words[:1] != ["local"]:
                raise Refused(f"Packets from {peer}, another host of the network, are not delivered to this host: the kernel says \"{answer.strip()[:120]}\".")
    # A fixed entry for another host of the network (the kernel makes NOARP ones of its own for
    # loopback, broadcast and multicast addresses).
    peers = {line.split(" ", 2)[1] for line in routes if line.count(" ") >= 2}
    for line in s.get("neigh", []):
        if line.split()[:1] and line.split()[0] in peers:
            raise Refused(f"A fixed neighbour entry is set ({line.strip()}): packets to that address go where it says, not where the address is. Remove it.")
    for line in s.get("link", []):
        m = re.match(r"^\d+: ([^:@]+)(@\S+)?: <([^>]*)>", line)
        if m and m.group(1) == self_dev and "NOARP" in m.group(3).split(","):
            raise Refused(f"{self_dev} does not answer ARP: the other hosts cannot find this one. Turn ARP back on.")
    _filters_as_built(s, firewall)
    save = "\n".join(s.get("iptables", []))
    if firewall and re.search(r"incompatible|^# Table", save, re.M):
        raise Refused("The packet filter holds rules iptables cannot show: the check cannot judge them.")
    return save


def _engine_dns_only(rule):
    """A rule that only ever matches packets to or from the engine's DNS (the engine's own NAT of
    127.0.0.11 in every container on a user network): it treats no host of the network."""
    for e in rule.get("expr", []):
        m = e.get("match") if isinstance(e, dict) else None
        left = m.get("left", {}) if isinstance(m, dict) else {}
        payload = left.get("payload", {}) if isinstance(left, dict) else {}
        if m.get("op") == "==" and m.get("right") == ENGINE_DNS and payload.get("protocol") == "ip" and payload.get("field") in ("saddr", "daddr") if m else False:
            return True
    return False


def _filters_as_built(s, firewall):
    try:
        items = json.loads("\n".join(s.get("nft", []))).get("nftables", [])
    except (ValueError, AttributeError):
        raise Refused("The grader could not read this host's packet filters: not graded.")
    tables_with_rules = set()
    for item in items:
        rule = item.get("rule") if isinstance(item, dict) else None
        if rule and not _engine_dns_only(rule):
            tables_with_rules.add((rule.get("family"), rule.get("table")))
    for item in items:
        chain = item.get("chain") if isinstance(item, dict) else None
        if not chain or "hook" not in chain:
            continue
        where = (chain.get("family"), chain.get("table"))
        label = f"{where[0]} {where[1]} {chain.get('name')}"
        if where == firewall:
            # iptables-save's account is the kernel's only when each base chain is iptables' own.
            if chain.get("name") != str(chain.get("hook", "")).upper() or chain.get("type") != "filter" or chain.get("prio") != 0:
                raise Refused(f"The packet filter has a chain iptables does not show as it works (nft chain {label}, hook {chain.get('hook')}): the check cannot judge it.")
            continue
        if chain.get("policy", "accept") != "accept" or where in tables_with_rules:
            raise Refused(f"A packet filter is in force outside the firewall the check judges (nft table {where[0]} {where[1]}): it can drop some hosts' packets. Remove it.")
    for line in s.get("legacy", []):
        if "Permission denied" in line:
            raise Refused("The grader could not read this host's legacy packet filters: not graded.")
        if line.startswith("-A ") or re.match(r"^:\S+ (DROP|REJECT)", line):
            raise Refused("Rules are loaded in the legacy iptables tables: a packet filter the firewall does not manage. Remove them.")


# ------------------------------------------------------------------ the network, as a client

def tcp(host, port, send=None, timeout=3.0):
    """A client's view of HOST:PORT: "closed" only on a refusal (a positive observation), "open"
    and the first line of any answer otherwise; anything else (a timeout, no route) is not an
    answer and refuses, so a negative check never passes on an interrupted probe."""
    import socket
    try:
        s = socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        return "closed"
    except socket.timeout:
        raise Refused(f"{host}:{port} neither accepted nor refused a connection within {timeout:g}s: the grader cannot tell.")
    except OSError as e:
        raise Refused(f"The grader could not reach {host}:{port} ({e.strerror or e}).")
    with s:
        line = b""
        if send is not None:
            s.sendall(send.encode().decode("unicode_escape").encode("latin-1"))
            try:
                while b"\n" not in line and len(line) < 4096:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    line += chunk
            except socket.timeout:
                pass
        return ("open " + line.split(b"\n", 1)[0].decode("utf-8", "replace").rstrip("\r")).rstrip()


# What a Debian host without systemd runs at boot and shutdown (sysv-rc): the scripts, their run
# levels' links, rc.local, and the defaults files the scripts source.
BOOT_FILES = ("/etc/init.d", "/etc/rcS.d", *(f"/etc/rc{n}.d" for n in range(7)), "/etc/rc.local", "/etc/default")


def boot_files(exempt=()):
    """Refuses unless what the target runs at boot or shutdown is as installed (pristine), but for
    the files its challenge judges itself (FL_BOOT_EXEMPT: written by setup, or part of the fix).
    The copy's boot (boot.sh) runs only the start of runlevel 2 and the grader looks right after
    it: a script that breaks things again a minute later, at shutdown or in another runlevel would
    be seen by no check (the second hostile review's rc6.d and `sleep 120` fakes)."""
    exempt = set(exempt)
    for path in BOOT_FILES:
        if path in exempt:
            continue
        names = [None]
        if path == "/etc/default":
            theirs = list_dir(path) if _exists_in_target(path) else []
            names = sorted(set(os.listdir(path) if os.path.isdir(path) else []) | set(theirs))
        for name in names:
            each = path if name is None else f"{path}/{name}"
            if each in exempt:
                continue
            try:
                pristine(each)
            except Refused:
                raise Refused(f"What this host runs at boot or shutdown is not as installed ({each}): nothing belongs there but what the system shipped with.") from None


def _exists_in_target(path):
    try:
        os.close(resolve(path, want_dir=True)[0])
        return True
    except (FileNotFoundError, NotADirectoryError, Refused):
        return False


def gate():
    """What every check requires first: no library preloaded into every program, and nothing
    new run at boot or shutdown (boot_files)."""
    try:
        content = read_file("/etc/ld.so.preload")
    except FileNotFoundError:
        content = ""
    if content.strip():
        raise Refused("/etc/ld.so.preload is set: grading refuses to trust a system that preloads libraries into every program.")
    boot_files(os.environ.get("FL_BOOT_EXEMPT", "").split())


# ------------------------------------------------------------------ command line

def expand(arg):
    """`@{NAME}` in an argument is the value of FL_NAME (a lone `@NAME` too): values reach fl
    through the environment, so no command line of the grader carries one."""
    def value(m):
        name = "FL_" + m.group(1)
        if name not in os.environ:
            raise Refused(f"internal: {name} is not set")
        return os.environ[name]
    if re.fullmatch(r"@([A-Z0-9_]+)", arg):
        return value(re.match(r"@([A-Z0-9_]+)", arg))
    return re.sub(r"@\{([A-Z0-9_]+)\}", value, arg)


def _json_argv(text):
    """An argument list as JSON, each element expanded like an argument."""
    return [expand(a) for a in json.loads(text)]


def main(args):
    cmd, rest = (args[0], [expand(a) if not a.lstrip().startswith("[") else a for a in args[1:]]) if args else ("", [])
    out = sys.stdout.buffer
    if cmd == "gate":
        gate()
    elif cmd == "read":
        out.write(read_file(rest[0]))
    elif cmd == "exists":
        try:
            stat_path(rest[0], want_dir=False)
        except (FileNotFoundError, NotADirectoryError):
            return 1
    elif cmd == "sha256":
        # Every byte, whatever the size.
        fd, _ = resolve(rest[0])
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise Refused(f"{rest[0]} is not a regular file.")
            h = hashlib.sha256()
            for chunk in stream(fd):
                h.update(chunk)
        finally:
            os.close(fd)
        out.write((h.hexdigest() + "\n").encode())
    elif cmd == "contains":
        # contains VALUE PATH...: the regular files below each PATH (links not followed) that hold
        # VALUE anywhere, whatever their size (sparse files cost what they hold).
        needles = [rest[0].encode()]
        for top in rest[1:]:
            try:
                for path, fd in walk_files(top):
                    if contains(fd, needles):
                        out.write(f"{path}\n".encode())
            except FileNotFoundError:
                continue
    elif cmd == "ls":
        out.write("".join(n + "\n" for n in list_dir(rest[0])).encode())
    elif cmd == "stat":
        # stat PATH: type (file, dir, fifo, socket, other), octal mode with set-id bits, uid, gid,
        # size, and "acl" when the file has an access ACL beyond its mode bits.
        fd, _ = resolve(rest[0])
        try:
            st = os.fstat(fd)
            acl = " acl" if _acl_entries(_xattrs(fd)[0]) else ""
        finally:
            os.close(fd)
        kind = "dir" if stat.S_ISDIR(st.st_mode) else "file" if stat.S_ISREG(st.st_mode) else "fifo" if stat.S_ISFIFO(st.st_mode) else "socket" if stat.S_ISSOCK(st.st_mode) else "other"
        out.write(f"{kind} {stat.S_IMODE(st.st_mode):04o} {st.st_uid} {st.st_gid} {st.st_size}{acl}\n".encode())
    elif cmd == "access":
        # access USER PATH: what USER may do with PATH, as the kernel decides ("r", "w", "x",
        # ACLs and every directory on the way included); empty when nothing.
        out.write((access(rest[0], rest[1]) + "\n").encode())
    elif cmd == "ctime":
        out.write(f"{stat_path(rest[0]).st_ctime:.3f}\n".encode())
    elif cmd == "df":
        fd, _ = resolve(rest[0], want_dir=True)
        try:
            s = os.fstatvfs(fd)
        finally:
            os.close(fd)
        out.write(f"{s.f_bavail * s.f_frsize // 1024} {s.f_blocks * s.f_frsize // 1024}\n".encode())
    elif cmd == "listeners":
        for addr, port, inode in listeners(int(rest[0]) if rest else None):
            out.write(f"{addr} {port} {' '.join(map(str, socket_owners(inode)))}\n".encode())
    elif cmd == "ps":
        # ps: every process of the target, one JSON object a line: pid, ppid, uid, exe, argv.
        for pid in target_pids():
            try:
                row = {"pid": pid, "ppid": parent_of(pid), "uid": uid_of(pid), "argv": argv(pid)}
                try:
                    row["exe"] = exe(pid)
                except OSError:
                    row["exe"] = None
            except OSError:
                continue
            out.write((json.dumps(row) + "\n").encode())
    elif cmd == "pids":
        # pids EXE: target processes running EXE (verified or not; verify them with `process`).
        for pid in target_pids():
            try:
                if exe(pid) == rest[0]:
                    out.write(f"{pid}\n".encode())
            except OSError:
                continue
    elif cmd == "process":
        # process PID EXE [--argv JSON] [--config PATH]...
        pid, want = int(rest[0]), rest[1]
        want_argv, configs = _options(rest[2:])
        verify_process(pid, want, want_argv[0] if want_argv else None, configs)
    elif cmd == "service":
        # service PORT EXE --argv JSON [--argv JSON]... [--config PATH]...: prints the pids.
        port, want = int(rest[0]), rest[1]
        want_argv, configs = _options(rest[2:])
        for pid in verify_listener(port, want, want_argv, configs):
            out.write(f"{pid}\n".encode())
    elif cmd == "quiet-net":
        quiet_net(set(rest))
    elif cmd == "pristine":
        for path in rest:
            pristine(path)
    elif cmd == "normalized":
        # normalized --format F [--image] PATH: the file as its program reads it (see FORMATS);
        # --image: the image's original, which the grader has at the same path.
        image = "--image" in rest
        rest = [a for a in rest if a != "--image"]
        if len(rest) != 3 or rest[0] != "--format":
            raise Refused("internal: normalized --format FORMAT [--image] PATH")
        out.write((normalized(rest[2], rest[1], image) + "\n").encode())
    elif cmd == "tcp":
        # tcp HOST PORT [--send TEXT]: "closed" (refused), or "open" and the answer's first line.
        send = rest[3] if len(rest) > 3 and rest[2] == "--send" else None
        out.write((tcp(rest[0], int(rest[1]), send) + "\n").encode())
    elif cmd == "find-argv":
        # find-argv JSON: target processes whose arguments are exactly these. A fork of such a
        # process (a shell's $(...), before it execs) shows the same arguments for a moment: it
        # is left out, as a child of a match.
        want = _json_argv(args[1])
        found = {}
        for pid in target_pids():
            try:
                if argv(pid) == want:
                    found[pid] = parent_of(pid)
            except OSError:
                continue
        for pid, ppid in found.items():
            if ppid not in found:
                out.write(f"{pid}\n".encode())
    elif cmd == "user":
        pid = int(rest[0])
        if not is_target(pid):
            raise Refused(f"Process {pid} is not one of the deployment's processes.")
        out.write((user_name(uid_of(pid)) + "\n").encode())
    elif cmd == "started":
        pid = int(rest[0])
        if not is_target(pid):
            raise Refused(f"Process {pid} is not one of the deployment's processes.")
        out.write(f"{start_time(pid):.3f}\n".encode())
    else:
        raise Refused(f"internal: unknown grader command {cmd!r}")
    return 0


def _options(rest):
    argvs, configs = [], []
    it = iter(rest)
    for flag in it:
        value = next(it)
        if flag == "--argv":
            argvs.append(_json_argv(value))
        elif flag == "--config":
            configs.append(expand(value))
        else:
            raise Refused(f"internal: unknown option {flag}")
    return argvs, configs


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        # The reader had what it wanted (`fl ... | grep -q`): not a failure of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except Refused as e:
        print(e, file=sys.stdout)
        sys.exit(1)
    except FileNotFoundError as e:
        print(f"{e.filename or 'a file'} does not exist on the system." if e.filename else "A file the check reads does not exist.")
        sys.exit(3)
    except OSError as e:
        print(f"The grader could not read what it needs ({e.strerror}).")
        sys.exit(1)
