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


