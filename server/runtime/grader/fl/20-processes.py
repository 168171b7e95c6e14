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


# What the storage and service challenges ask of the processes they judge (more than one check
# asks the same): who holds a deleted file, which processes run a command line and are the
# system's program, whether one is stopped, whether a heartbeat moves.


def held_deleted(prefix):
    """(pid, arguments, file) of a process holding a deleted file below prefix, through a
    descriptor or a mapping (the blocks a name no longer shows): the eldest of a family that
    shares it (a child inherits its parent's descriptors)."""
    holders = {}
    for pid in target_pids():
        try:
            links = [os.readlink(f"/proc/{pid}/fd/{n}") for n in os.listdir(f"/proc/{pid}/fd")]
            with open(f"/proc/{pid}/maps") as f:
                links += [cols[5].rstrip("\n") for cols in (line.split(None, 5) for line in f) if len(cols) == 6]
            args, parent = " ".join(argv(pid))[:70], parent_of(pid)
        except OSError:
            continue  # ended meanwhile
        for link in links:
            if link.startswith(prefix) and link.endswith(" (deleted)"):
                holders[pid] = (parent, args, link)
                break
    for pid, (parent, args, link) in sorted(holders.items()):
        if parent not in holders:
            return pid, args, link
    return None


def verified_processes(want, exe, configs=()):
    """The target's processes running exactly this command line, each verified (verify_process:
    the system's program, unaltered, started after its settings): {pid: start time}. A fork that
    has not run its own command yet (it shows its parent's arguments for a moment), or a process
    that ended or became another program since it was listed, is left out."""
    found = {}
    for pid in target_pids():
        try:
            if argv(pid) == want:
                found[pid] = parent_of(pid)
        except OSError:
            continue
    verified = {}
    for pid, parent in found.items():
        if parent in found:
            continue
        try:
            verified[pid] = verify_process(pid, exe, want, configs)
        except Refused:
            try:
                if argv(pid) != want:
                    continue
            except OSError:
                continue
            raise
    return verified


def not_stopped(pid, label):
    """Refuses when process `pid` (called `label`) is stopped or gone: it does no work."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
    except OSError:
        raise Refused(f"{label} (process {pid}) ended while the grader looked at it.")
    if state in (b"T", b"t", b"Z", b"X"):
        raise Refused(f"{label} (process {pid}) is stopped: it does no work.")


def heartbeat(path):
    """The number a service writes to its heartbeat file every second: the file itself, not one a
    link leads to (0 when there is none or it says nothing)."""
    try:
        fd, where = resolve(path)
    except OSError:
        return 0
    os.close(fd)
    try:
        return int(read_file(path).strip() or 0) if where == path else 0
    except (OSError, ValueError):
        return 0


def heartbeat_moves(path, limit=2.5):
    """Whether the heartbeat at path moves within limit seconds (it is written every second)."""
    first, deadline = heartbeat(path), time.monotonic() + limit
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if heartbeat(path) > first:
            return True
    return False


def cron_running():
    """Refuses unless cron runs: the system's program, started as its init script starts it (the
    children it forks for the jobs, with the same arguments, are left out)."""
    pids = []
    for pid in target_pids():
        try:
            if argv(pid) == ["/usr/sbin/cron"] and argv(parent_of(pid)) != ["/usr/sbin/cron"]:
                pids.append(pid)
        except OSError:
            continue
    if not pids:
        raise Refused("cron is not running (service cron start): the jobs must keep running.")
    for pid in pids:
        verify_process(pid, "/usr/sbin/cron", ["/usr/sbin/cron"])
