#!/bin/bash
# The next nightly rotation, tried for real on the frozen copy of the disk before it boots
# (decision 008: ask the program that reads the configuration; here what logrotate *does* with it
# is the question, since a postrotate script is shell that only running it can judge). As the
# nightly job would find things tomorrow:
#   - pricefeed is started the way its init script starts it (the image's start-stop-daemon, as
#     the user pricefeed), and writes its log;
#   - a line only this test knows is appended to that log, and logrotate's state says the log was
#     last rotated two days ago;
#   - the image's logrotate runs `/etc/logrotate.conf`, the nightly job's command.
# Then: was that line moved out of the log into a rotated file (rotated), and does pricefeed,
# unaltered, write into the file now at the log's path (reopened)?
#
# What runs the player's configuration (logrotate, its scripts, pricefeed and what they start)
# runs as the user pricefeed, without capabilities: it cannot read or write what this root
# process holds (its output), and everything of that user is killed before the verdict is
# printed. The observer that reads pricefeed's descriptors runs as that user too (only it may:
# the copy has no CAP_SYS_PTRACE), made undumpable so that the player's processes cannot reach it.
# Output (FL_INSPECTION in check.sh): "rotation: started=... rotated=... reopened=..." and up to
# three of logrotate's lines about the log ("logrotate: ...").
trusted python3 -I -S - <<'PY'
import ctypes, gzip, json, os, signal, stat, subprocess, time

LOADER = "/lib64/ld-linux-x86-64.so.2"
PIDFILE = "/run/pricefeed.pid"
ARGV = [b"/bin/bash", b"/usr/sbin/pricefeed"]


def account(name):
    with open("/etc/passwd") as f:
        for line in f:
            cols = line.rstrip("\n").split(":")
            if len(cols) >= 7 and cols[0] == name and cols[2].isdigit() and cols[3].isdigit():
                return int(cols[2]), int(cols[3])
    return None


def become_user():
    os.setgroups([])
    os.setgid(GID)
    os.setuid(UID)
    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: no same-user process may look in


def pricefeeds():
    """pricefeed processes: the user pricefeed running exactly its command line."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if f.read().rstrip(b"\0").split(b"\0") != ARGV:
                    continue
            if os.stat(f"/proc/{entry}").st_uid == UID:
                found.append(int(entry))
        except OSError:
            continue
    return found


def observe(pids):
    """What each pricefeed writes to (fd 1: path, device, inode), whether it runs, and any file it
    maps from outside the read-only system: read in a child as the user pricefeed."""
    root_dev = os.stat("/").st_dev
    r, w = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.close(r)
            become_user()
            facts = {}
            for pid in pids:
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
                                if os.makedev(major, minor) != root_dev:
                                    foreign = cols[5].strip()
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


def kill_user():
    """Every process of the user pricefeed (kill -1 as that user: all of its own but itself)."""
    for _ in range(3):
        child = os.fork()
        if child == 0:
            try:
                become_user()
                os.kill(-1, signal.SIGKILL)
            finally:
                os._exit(0)
        os.waitpid(child, 0)
        time.sleep(0.1)


def holds(path, needle):
    try:
        with open(path, "rb") as f:
            data = f.read(64 << 20)
        if path.endswith(".gz"):
            data = gzip.decompress(data)
    except (OSError, EOFError, gzip.BadGzipFile):
        return False
    return needle in data


def say(**facts):
    print("rotation: " + " ".join(f"{k}={v}" for k, v in facts.items()))


acct = account("pricefeed")
if not acct:
    say(started="no", why="no-user-pricefeed")
    raise SystemExit(0)
UID, GID = acct
out = "/tmp/fl-logrotate.out"
try:
    # pricefeed, as its init script starts it.
    subprocess.run([LOADER, "--inhibit-cache", "/sbin/start-stop-daemon", "--start", "--quiet", "--background",
                    "--make-pidfile", "--pidfile", PIDFILE, "--chuid", f"{UID}:{GID}", "--chdir", "/",
                    "--startas", "/usr/sbin/pricefeed"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=10)
    log = None
    for _ in range(30):
        time.sleep(0.1)
        for pid, (target, dev, ino, regular, state, foreign) in observe(pricefeeds()).items():
            if regular and not target.endswith(" (deleted)"):
                log = target
        if log:
            break
    if not log:
        say(started="no", why="pricefeed-wrote-no-log")
        raise SystemExit(0)
    marker = f"fl-rotation-{os.urandom(8).hex()}".encode()
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
    os.write(fd, marker + b"\n")
    os.close(fd)
    state = "/tmp/fl-logrotate.state"
    when = time.strftime("%Y-%m-%d-%H:%M:%S", time.localtime(time.time() - 2 * 86400))
    with open(state, "w") as f:
        f.write(f'logrotate state -- version 2\n"{log}" {when}\n')
    os.chown(state, UID, GID)
    with open(out, "wb") as f:
        try:
            subprocess.run([LOADER, "--inhibit-cache", "/usr/sbin/logrotate", "-v", "-s", state, "/etc/logrotate.conf"],
                           stdin=subprocess.DEVNULL, stdout=f, stderr=f, preexec_fn=become_user, cwd="/", timeout=15)
        except subprocess.TimeoutExpired:
            pass
    time.sleep(1.0)
    now = os.stat(log)
    size = now.st_size
    time.sleep(0.6)
    grew = os.stat(log).st_size > size
    rotated = not holds(log, marker) and any(
        holds(os.path.join(d, n), marker) for d, _, names in os.walk("/var/log") for n in names if os.path.join(d, n) != log)
    writers = [f for f in observe(pricefeeds()).values() if f[4] not in ("T", "t", "Z", "X")]
    loaded = next((f[5] for f in writers if f[5]), "")
    reopened = grew and not loaded and any(f[1:3] == [now.st_dev, now.st_ino] for f in writers)
    say(started="yes", rotated="yes" if rotated else "no", reopened="yes" if reopened else "no", loaded=loaded or "-")
finally:
    kill_user()
    for path in (PIDFILE, "/tmp/fl-logrotate.state"):
        try:
            os.unlink(path)
        except OSError:
            pass
try:
    with open(out, errors="replace") as f:
        lines = [l.strip() for l in f if "error" in l.lower() or "does not need rotating" in l or "log needs rotating" in l]
    for line in lines[:3]:
        print("logrotate: " + line[:200])
    os.unlink(out)
except OSError:
    pass
PY
