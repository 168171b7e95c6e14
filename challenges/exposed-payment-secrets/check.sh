#!/bin/bash
# Grading: runs in the grader beside pay01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of pay01's. The same in both phases (live, and after a boot,
# where payments-gw started from its init script and read its files again, as its own user):
#   - as a client: the gateway answers as this host's instance, running with this deployment's
#     provider key, database password and TLS key (its /health shows their fingerprints);
#   - who answers: the system's program, started by its service script as the payments user;
#   - its files hold those secrets as it reads them (configparser, the key's bytes), and payments
#     can read them (fl.access: mode bits, ACLs, every directory on the way);
#   - every file in pay01's writable directories that holds a secret, whatever its size (fl.py's
#     streaming search: sparse files cost what they hold), as it is or once unpacked (gzip, bzip2,
#     xz, zip: a packed backup exposes the secrets as much as a plain copy), is readable by root
#     and payments alone (fl.access for every other account) and owned by one of them; no process
#     of another account holds such a file open (opened while it could: deleted or not, it stays
#     readable through the descriptor) or carries a secret in its environment, and no process
#     carries one in its arguments; the boot's own scripts are as installed.
# One python run with fl.py's functions (each start of an interpreter costs): its HTTP client calls
# as the story's clients do, with the user agent the platform picked for this check. Secrets reach
# it through its environment, never a command line. Environment: FL_TARGET, FL_INSTANCE,
# FL_API_KEY, FL_DB_PASSWORD, FL_KEY_LINE, FL_KEY_DIGEST, FL_CLIENT_AGENT. The file in the report
# is the platform's to judge (challenge.yaml answer:).
verdict=$(python3 -I -S - <<'PY'
import bz2, configparser, hashlib, http.client, json, lzma, os, stat, sys, zipfile, zlib
sys.path.insert(0, "/tmp")
import fl

Refused = fl.Refused
CONF, KEY = "/etc/payments-gw/credentials.ini", "/etc/payments-gw/tls/key.pem"
WRITABLE = ("/etc", "/var", "/root", "/home", "/tmp", "/run", "/srv", "/opt", "/usr/local", "/dev")
api_key, db_password = os.environ["FL_API_KEY"], os.environ["FL_DB_PASSWORD"]
fingerprint = lambda s: hashlib.sha256(s.encode()).hexdigest()[:12]


def identities():
    """Every account with its user id and groups, as fl.access reads them (read once: fl.access
    reads the account files at each call)."""
    members = {}
    for line in fl.read_file("/etc/group").decode("utf-8", "replace").splitlines():
        f = line.split(":")
        if len(f) >= 4 and f[2].isdigit():
            for m in f[3].split(","):
                members.setdefault(m, set()).add(int(f[2]))
    return {u: (uid, {gid} | members.get(u, set())) for u, (uid, gid) in fl._passwd().items()}


def readers(path, ids, acls=True):
    """Accounts that may read the file, as the kernel decides (fl._allowed: mode bits and ACLs,
    search permission on every directory on the way, as fl.access); acls=False: by the mode bits
    alone (to say where an access comes from)."""
    fd, canonical = fl.resolve(path)
    os.close(fd)
    parts = canonical.strip("/").split("/")
    reach = set(ids)
    for n in range(len(parts) + 1):
        fd, _ = fl.resolve("/" + "/".join(parts[:n]), want_dir=n < len(parts))
        try:
            st, acl = os.fstat(fd), fl._xattrs(fd)[0] if acls else None
        finally:
            os.close(fd)
        for user in sorted(reach):
            bits = fl._allowed(st, acl, *ids[user])
            if not bits & (4 if n == len(parts) else 1):
                reach.discard(user)
    return reach

UNPACKED_LIMIT = 256 << 20


def unpacked(fd):
    """The content of a compressed file (gzip, bzip2, xz, zip), streamed, or nothing: a backup
    packed with the usual tools holds the secrets as much as a plain copy, for whoever can read
    it. More than UNPACKED_LIMIT bytes of it cannot be judged in time: refused."""
    head = os.pread(fd, 6, 0)
    if head[:2] == b"\x1f\x8b":
        new = lambda: zlib.decompressobj(47)
    elif head[:3] == b"BZh":
        new = bz2.BZ2Decompressor
    elif head == b"\xfd7zXZ\x00":
        new = lzma.LZMADecompressor
    elif head[:4] == b"PK\x03\x04":
        with zipfile.ZipFile(os.fdopen(os.dup(fd), "rb")) as z:
            total = 0
            for info in z.infolist():
                with z.open(info) as member:
                    while chunk := member.read(1 << 20):
                        total += len(chunk)
                        if total > UNPACKED_LIMIT:
                            raise Refused("A compressed file on pay01 unpacks to more than the grader can look through in time.")
                        yield chunk
        return
    else:
        return
    d, total = new(), 0
    for chunk in fl.stream(fd):
        while chunk:
            out = d.decompress(chunk)
            total += len(out)
            if total > UNPACKED_LIMIT:
                raise Refused("A compressed file on pay01 unpacks to more than the grader can look through in time.")
            yield out
            chunk = d.unused_data if d.eof else b""
            if d.eof:
                d = new()


def holds_secret(fd, needles):
    """The file holds a secret, as it is or once unpacked (needles across chunk borders)."""
    if fl.contains(fd, needles):
        return True
    keep, tail = max(len(n) for n in needles) - 1, b""
    try:
        for data in unpacked(fd):
            window = tail + data
            if any(n in window for n in needles):
                return True
            tail = window[-keep:]
    except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError, zipfile.BadZipFile, NotImplementedError, RuntimeError):
        return False  # not really compressed (a magic number by chance) or damaged: what unpacks is judged
    return False


def get_health():
    """A client's GET /health: (status, JSON body or {}); (None, {}) when nothing answers."""
    return fl.http_get(os.environ["FL_TARGET"], 8443, "/health")


with fl.verdict("The grader could not look at pay01's files"):
    code, health = get_health()
    if code != 200:
        raise Refused(f"The payment gateway does not answer at http://{os.environ['FL_TARGET']}:8443/health (HTTP {code or 'none'}): payments are down.")
    for pid in fl.verify_listener(8443, "/usr/bin/python3.11", [["/usr/bin/python3", "-I", "-S", "/usr/lib/payments-gw/payments_gw.py"]]):
        user = fl.user_name(fl.uid_of(pid))
        if user != "payments":
            raise Refused(f"payments-gw runs as {user}; it must run as its own user, payments (use its service script).")
    if not isinstance(health, dict) or health.get("instance") != os.environ["FL_INSTANCE"]:
        raise Refused("Something answers on port 8443, but it is not this host's payment gateway.")
    if (health.get("api_key"), health.get("database"), health.get("tls_key")) != (fingerprint(api_key), fingerprint(db_password), os.environ["FL_KEY_DIGEST"][:12]):
        raise Refused("The payment gateway does not run with its own provider key, database password and TLS key any more: keep the secrets, restrict who can read them.")

    ids = identities()
    trusted = {0, ids["payments"][0]}
    for path in (CONF, KEY):
        try:
            fl.stat_path(path)
        except (FileNotFoundError, NotADirectoryError):
            raise Refused(f"{path} is gone: the gateway cannot start without it.")
        if "payments" not in readers(path, ids):
            raise Refused(f"{path} cannot be read by the payments account any more: the gateway would not start again.")
    conf = configparser.ConfigParser()
    try:
        conf.read_string(fl.read_file(CONF).decode("utf-8", "replace"))
        held = (conf.get("provider", "api_key"), conf.get("database", "password"))
    except (configparser.Error, UnicodeError):
        held = None
    if held != (api_key, db_password):
        raise Refused(f"{CONF} does not hold the gateway's provider key and database password as it reads them: keep the secrets, restrict who can read them.")
    if fl.digest_of(KEY) != os.environ["FL_KEY_DIGEST"]:
        raise Refused("The gateway's TLS key is not the one it was given: keep it, restrict who can read it.")

    needles = [api_key.encode(), db_password.encode(), os.environ["FL_KEY_LINE"].encode()]
    for top in WRITABLE:
        try:
            found = [(path, os.fstat(fd).st_uid) for path, fd in fl.walk_files(top) if holds_secret(fd, needles)]
        except FileNotFoundError:
            continue
        for path, owner in found:
            if owner not in trusted:
                raise Refused(f"{path} holds the gateway's secrets and belongs to {fl.user_name(owner)}, who can read it (or make it readable) at will.")
            others = [u for u in readers(path, ids) if ids[u][0] not in trusted]
            if others:
                # The people's accounts first (uid 1000 and up), then the system's.
                user = min(others, key=lambda u: (ids[u][0] < 1000, u))
                how = "" if user in readers(path, ids, acls=False) else " (through an ACL entry)"
                raise Refused(f"{path} holds the gateway's secrets and can still be read by {user}{how}.")
    # What processes hold: a file opened while it was readable stays readable through the open
    # descriptor (deleted or not), and every account sees every process's arguments.
    for pid in fl.target_pids():
        try:
            uid, args = fl.uid_of(pid), "\0".join(fl.argv(pid)).encode()
            fds = [] if uid in trusted else os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        if any(n in args for n in needles):
            raise Refused(f"Process {pid} carries one of the gateway's secrets in its arguments, which every account sees with ps.")
        if uid not in trusted:
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    environ = f.read()
            except OSError:
                environ = b""
            if any(n in environ for n in needles):
                raise Refused(f"Process {pid} ({fl.user_name(uid)}) carries one of the gateway's secrets in its environment: that account has it.")
        if fl.open_file_holding(pid, fds, needles) is not None:
            raise Refused(f"Process {pid} ({fl.user_name(uid)}) still holds a file with the gateway's secrets open: it can read them whatever the modes say now.")
    # The boot's own scripts as installed (a script of one's own could undo the repair later).
    fl.boot_scripts_pristine()
PY
) || refuse "The grader could not look at pay01's files."
[ "$verdict" = ok ] || refuse "$verdict"
echo "The gateway's secrets are readable by root and payments only, and the gateway still serves payments."
