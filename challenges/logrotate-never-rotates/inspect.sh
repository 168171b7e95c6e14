#!/bin/bash
# The next nightly rotation, tried for real on the frozen copy of the disk before it boots
# (decision 008: ask the program that reads the configuration; here what logrotate *does* with it
# is the question, since a postrotate script is shell that only running it can judge). As the
# nightly job would find things tomorrow:
#   - pricefeed is started the way its init script starts it (the image's start-stop-daemon, as
#     the user pricefeed) and writes its log;
#   - a line only this test knows is appended to that log, and logrotate's state says the log was
#     last rotated two days ago;
#   - the image's logrotate runs the nightly job's command, `logrotate /etc/logrotate.conf`, as
#     root, as the nightly job does.
# Then: was that line moved out of the log into another file (rotated), and does pricefeed,
# unaltered, write into the file now at the log's path (reopened)?
#
# This runs the player's configuration (logrotate's scripts, and pricefeed), so the verdict is
# kept out of its reach: this bash becomes the Python below (exec: no other process here holds
# the output), which makes itself undumpable first, so that no process without CAP_SYS_PTRACE
# (nothing in the copy has it) may open its descriptors or read its memory; the player's code can
# only kill it, and a missing verdict is a refusal. pricefeed's descriptors are read by a child
# that becomes the user pricefeed (the only one allowed to, without that capability), undumpable
# too. Every process the test started is killed before the verdict is printed and before the
# copy boots. Output (FL_INSPECTION in check.sh): "rotation: started=... rotated=...
# reopened=... loaded=... leftovers=..." and up to three of logrotate's lines about the log.
exec "$fl_loader" --inhibit-cache /usr/bin/python3 -I -S - <<'PY'
import ctypes, gzip, json, os, re, signal, stat, subprocess, time

libc = ctypes.CDLL(None)
libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0, before anything of the player's runs

LOADER = "/lib64/ld-linux-x86-64.so.2"
PIDFILE = "/run/pricefeed.pid"
ARGV = [b"/bin/bash", b"/usr/sbin/pricefeed"]
ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": "/root"}
# Variables that make a loader, a shell or an interpreter run code of someone's choosing (fl.py).
HOOK = re.compile(rb"^(LD_[A-Z_]+|BASH_ENV|ENV|BASH_FUNC_.*|SHELLOPTS|BASHOPTS|PS4|PYTHON[A-Z_]*|PERL5[A-Z_]*|GCONV_PATH|LOCPATH|GLIBC_TUNABLES)=")
ME = os.getpid()


def account(name):
    with open("/etc/passwd") as f:
        for line in f:
            cols = line.rstrip("\n").split(":")
            if len(cols) >= 7 and cols[0] == name and cols[2].isdigit() and cols[3].isdigit():
                return int(cols[2]), int(cols[3])
    return None


def pids():
    return {int(p) for p in os.listdir("/proc") if p.isdigit()}


def pricefeeds():
    """pricefeed processes: the user pricefeed running exactly its command line."""
    found = []
    for pid in pids():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if f.read().rstrip(b"\0").split(b"\0") != ARGV:
                    continue
            if os.stat(f"/proc/{pid}").st_uid == UID:
                found.append(pid)
        except OSError:
            continue
    return found


def observe(targets):
    """What each pricefeed writes to (fd 1: path, device, inode, a regular file?), its state, and
    anything run into it (a file mapped from outside the read-only system, a hook variable): read
    by a child that becomes the user pricefeed, undumpable."""
    root_dev = os.stat("/").st_dev
    r, w = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.close(r)
            null = os.open("/dev/null", os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.setgroups([])
            os.setgid(GID)
            os.setuid(UID)
            libc.prctl(4, 0, 0, 0, 0)
            facts = {}
            for pid in targets:
                try:
                    target = os.readlink(f"/proc/{pid}/fd/1")
                    st = os.stat(f"/proc/{pid}/fd/1")
                    with open(f"/proc/{pid}/stat", "rb") as f:
                        state = f.read().rsplit(b")", 1)[1].split()[0].decode()
                    foreign = ""
                    with open(f"/proc/{pid}/maps") as f:
                        for line in f:
                            cols = line.split(None, 5)
                            if len(cols) == 6 and cols[4] != "0" and cols[5].startswith("/"):
                                major, minor = (int(x, 16) for x in cols[3].split(":"))
                                if os.makedev(major, minor) != root_dev or cols[5].endswith(" (deleted)"):
                                    foreign = cols[5].strip()
                    with open(f"/proc/{pid}/environ", "rb") as f:
                        hooks = [v.split(b"=", 1)[0].decode() for v in f.read().split(b"\0") if HOOK.match(v)]
                    if hooks:
                        foreign = foreign or hooks[0]
                    facts[pid] = [target, st.st_dev, st.st_ino, stat.S_ISREG(st.st_mode), state, foreign]
                except OSError:
                    continue
            os.write(w, json.dumps(facts).encode())
        finally:
            os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    os.close(r)
    os.waitpid(child, 0)
    return {int(k): v for k, v in json.loads(data or b"{}").items()}


def regular(path):
    """The bytes of a regular file (not a link, a pipe or a device), decompressed when .gz."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        data = b""
        while len(data) < (64 << 20) and (chunk := os.read(fd, 1 << 20)):
            data += chunk
    finally:
        os.close(fd)
    if path.endswith(".gz"):
        try:
            return gzip.decompress(data)
        except (OSError, EOFError):
            return b""
    return data


def say(**facts):
    print("rotation: " + " ".join(f"{k}={v}" for k, v in facts.items()), flush=True)


acct = account("pricefeed")
if not acct:
    say(started="no")
    raise SystemExit(0)
UID, GID = acct
before = pids()
out, state = "/tmp/fl-logrotate.out", "/tmp/fl-logrotate.state"
verdict, lines = {"started": "no"}, []
try:
    # pricefeed, as its init script starts it.
    subprocess.run([LOADER, "--inhibit-cache", "/sbin/start-stop-daemon", "--start", "--quiet", "--background",
                    "--make-pidfile", "--pidfile", PIDFILE, "--chuid", f"{UID}:{GID}", "--chdir", "/",
                    "--startas", "/usr/sbin/pricefeed"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=ENV, timeout=10)
    log = None
    for _ in range(30):
        time.sleep(0.1)
        for target, dev, ino, is_file, _, _ in observe(pricefeeds()).values():
            if is_file and not target.endswith(" (deleted)"):
                log = target
        if log:
            break
    if log:
        marker = f"fl-rotation-{os.urandom(8).hex()}".encode()
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK)
        os.write(fd, marker + b"\n")
        os.close(fd)
        when = time.strftime("%Y-%m-%d-%H:%M:%S", time.localtime(time.time() - 2 * 86400))
        with open(state, "w") as f:
            f.write(f'logrotate state -- version 2\n"{log}" {when}\n')
        with open(out, "wb") as f:
            try:
                subprocess.run([LOADER, "--inhibit-cache", "/usr/sbin/logrotate", "-v", "-s", state, "/etc/logrotate.conf"],
                               stdin=subprocess.DEVNULL, stdout=f, stderr=f, cwd="/", env=ENV, timeout=15)
            except subprocess.TimeoutExpired:
                pass
        time.sleep(1.0)
        now = os.stat(log)
        time.sleep(0.6)
        grew = os.stat(log).st_size > now.st_size
        rotated = marker not in regular(log) and any(
            marker in regular(os.path.join(d, n)) for d, _, names in os.walk("/var/log") for n in names if os.path.join(d, n) != log)
        writers = [f for f in observe(pricefeeds()).values() if f[4] not in ("T", "t", "Z", "X")]
        loaded = next((f[5] for f in writers if f[5]), "")
        reopened = grew and not loaded and any(f[1:3] == [now.st_dev, now.st_ino] for f in writers)
        verdict = {"started": "yes", "rotated": "yes" if rotated else "no", "reopened": "yes" if reopened else "no",
                   "loaded": loaded.replace(" ", "_") or "-"}
        try:
            with open(out, errors="replace") as f:
                lines = [l.strip() for l in f if "error" in l.lower() or "does not need rotating" in l or "log needs rotating" in l]
        except OSError:
            pass
finally:
    # Everything the test started (pricefeed, logrotate's scripts and what they left behind).
    left = set()
    for _ in range(5):
        left = pids() - before - {ME}
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.1)
    left = {p for p in pids() - before - {ME} if os.path.exists(f"/proc/{p}/cmdline") and open(f"/proc/{p}/cmdline", "rb").read()}
    for path in (PIDFILE, state, out):
        try:
            os.unlink(path)
        except OSError:
            pass
say(**verdict, leftovers="yes" if left else "no")
for line in lines[:3]:  # printable text only: the player's scripts may have written into that file
    print("logrotate: " + "".join(c for c in line if c.isprintable())[:200])
PY
