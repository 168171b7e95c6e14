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


def http_get(host, port, path, headers=None):
    """A client's GET, with the user agent of the story's clients (FL_CLIENT_AGENT): (status, JSON
    body or {}); (None, {}) when nothing answers."""
    import http.client

    conn = http.client.HTTPConnection(host, port, timeout=5)
    try:
        conn.request("GET", path, headers={"User-Agent": os.environ.get("FL_CLIENT_AGENT", "curl/7.88.1"), "Accept": "*/*", **(headers or {})})
        answer = conn.getresponse()
        body = answer.read(65536)
        try:
            return answer.status, json.loads(body)
        except ValueError:
            return answer.status, {}
    except (OSError, http.client.HTTPException):
        return None, {}
    finally:
        conn.close()


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




# The boot's own scripts: what starts a service at every boot and stops it at shutdown.
BOOT_SCRIPTS = ["/etc/init.d", *(f"/etc/rc{r}.d" for r in "0123456S"), "/etc/rc.local"]


def network_service(service, user, ports, argv, config, exe="/usr/bin/python3.11", boot_files=(), firewall=None, private=None):
    """The service a challenge's clients call over the network, as the system runs it, on a host
    whose player holds NET_ADMIN: nothing but the service listens (a packet filter rule could send
    the clients elsewhere); nothing else of the network stack treats some hosts differently
    (network_as_built, `firewall` as there); every port (FL_<name> for each name in `ports`) is
    held by the system's `exe` running `argv` after the last change of `config`, as its own
    `user`, on every address; after a boot, the boot's scripts (and `boot_files`) as installed;
    and the port FL_<`private`> does not answer this host (the firewall keeps it for others)."""
    numbers = [int(os.environ[f"FL_{name}"]) for name in ports]
    quiet_net({str(p) for p in numbers})
    network_as_built(firewall=firewall)
    for port in numbers:
        for pid in verify_listener(port, exe, [argv], config):
            owner = user_name(uid_of(pid))
            if owner != user:
                raise Refused(f"{service} runs as {owner}; it must run as its own user, {user} (use its service script).")
        for addr, _, _ in listeners(port):
            if addr != "0.0.0.0":
                raise Refused(f"{service} listens on {addr}:{port} only: it must listen on every address of its host (bind = 0.0.0.0), as configured.")
    if os.environ.get("FL_PHASE") == "boot":
        for path in [*BOOT_SCRIPTS, *boot_files]:
            pristine(path)
    if private:
        import socket

        port = int(os.environ[f"FL_{private}"])
        s = socket.socket()
        s.settimeout(1.5)
        try:
            s.connect((os.environ["FL_TARGET"], port))
            raise Refused(f"The API answers, but so does the metrics port {port}, from a host that is not the monitoring server: the firewall must keep protecting it.")
        except (ConnectionRefusedError, socket.timeout):
            pass
        finally:
            s.close()


def judged(question, *args, **kwargs):
    """Runs one of fl's judgements for a check's Python and ends the program the way check.sh reads
    it: silent with status 0 when it holds; its one line and status 1 when it is refused or the
    grader could not read what it needs."""
    try:
        question(*args, **kwargs)
    except Refused as e:
        print(e)
        sys.exit(1)
    except OSError as e:
        print(f"The grader could not read what it needs ({e.strerror or e}).")
        sys.exit(1)
