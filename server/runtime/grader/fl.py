# fl: the grader's view of a target, for check.sh (docs/decisions/008-grading-threat-model.md).
#
# Runs in the grader container: the challenge's read-only image (the platform's binaries, its own
# /etc, /usr/local and loader cache), started with `python3 -I -S` (no environment, no site hooks),
# in the target's PID namespace. PID 1 is the target's init, so /proc/1/root is the target's
# filesystem and /proc/1/net its sockets. Nothing here executes a file of the target.
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

TARGET_ROOT = "/proc/1/root"
MAX_READ = 4 * 1024 * 1024
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

def _own_cgroup():
    with open("/proc/self/cgroup", "rb") as f:
        return f.read()


def target_pids():
    """Processes of the target (the PID namespace also holds the grader's own)."""
    own = _own_cgroup()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cgroup", "rb") as f:
                if f.read() == own:
                    continue
        except OSError:
            continue
        pids.append(int(entry))
    return sorted(pids)


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
            with open(f"/proc/1/net/{table}") as f:
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
            with open(f"/proc/1/net/{table}") as f:
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
            with open(f"/proc/1/net/{table}") as f:
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
        if changed >= started:
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


def _normalized(data):
    """Configuration text without comments and with runs of blanks collapsed."""
    text = re.sub(r"#[^\n]*", "", data.decode("utf-8", "replace"))
    return " ".join(text.split())


def pristine(path):
    """Refuses unless `path` in the target (a file, or a directory and all below it) says the same
    as the image's original, which the grader has at the same path in its own read-only /etc."""
    try:
        own = os.lstat(path)
    except FileNotFoundError:
        own = None
    try:
        theirs = stat_path(path, want_dir=own is not None and stat.S_ISDIR(own.st_mode))
    except FileNotFoundError:
        theirs = None
    if own is None or theirs is None:
        if own is None and theirs is None:
            return
        raise Refused(f"{path} differs from the original installation: it is not part of the fault, put it back.")
    if stat.S_ISDIR(own.st_mode):
        if not stat.S_ISDIR(theirs.st_mode) or sorted(os.listdir(path)) != list_dir(path):
            raise Refused(f"{path} differs from the original installation: it is not part of the fault, put it back.")
        for name in sorted(os.listdir(path)):
            pristine(f"{path}/{name}")
        return
    with open(path, "rb") as f:
        mine = _normalized(f.read())
    if _normalized(read_file(path)) != mine:
        raise Refused(f"{path} differs from the original installation: it is not part of the fault, put it back.")


def gate():
    """Refuses when the target's loader would run something for every program."""
    try:
        content = read_file("/etc/ld.so.preload")
    except FileNotFoundError:
        return
    if content.strip():
        raise Refused("/etc/ld.so.preload is set: grading refuses to trust a system that preloads libraries into every program.")


# ------------------------------------------------------------------ command line

def main(args):
    cmd, rest = (args[0], args[1:]) if args else ("", [])
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
        out.write((hashlib.sha256(read_file(rest[0])).hexdigest() + "\n").encode())
    elif cmd == "ls":
        out.write("".join(n + "\n" for n in list_dir(rest[0])).encode())
    elif cmd == "stat":
        # stat PATH: type (file, dir, fifo, socket, other), octal mode with set-id bits, uid, gid, size.
        st = stat_path(rest[0])
        kind = "dir" if stat.S_ISDIR(st.st_mode) else "file" if stat.S_ISREG(st.st_mode) else "fifo" if stat.S_ISFIFO(st.st_mode) else "socket" if stat.S_ISSOCK(st.st_mode) else "other"
        out.write(f"{kind} {stat.S_IMODE(st.st_mode):04o} {st.st_uid} {st.st_gid} {st.st_size}\n".encode())
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
        out.write((_normalized(read_file(rest[0])) + "\n").encode())
    elif cmd == "find-argv":
        # find-argv JSON: target processes whose arguments are exactly these. A fork of such a
        # process (a shell's $(...), before it execs) shows the same arguments for a moment: it
        # is left out, as a child of a match.
        want = json.loads(rest[0])
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
        out.write((user_name(uid_of(int(rest[0]))) + "\n").encode())
    elif cmd == "started":
        out.write(f"{start_time(int(rest[0])):.3f}\n".encode())
    else:
        raise Refused(f"internal: unknown grader command {cmd!r}")
    return 0


def _options(rest):
    argvs, configs = [], []
    it = iter(rest)
    for flag in it:
        value = next(it)
        if flag == "--argv":
            argvs.append(json.loads(value))
        elif flag == "--config":
            configs.append(value)
        else:
            raise Refused(f"internal: unknown option {flag}")
    return argvs, configs


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Refused as e:
        print(e, file=sys.stdout)
        sys.exit(1)
    except FileNotFoundError as e:
        print(f"{e.filename or 'a file'} does not exist on the system." if e.filename else "A file the check reads does not exist.")
        sys.exit(3)
    except OSError as e:
        print(f"The grader could not read what it needs ({e.strerror}).")
        sys.exit(1)
