#!/bin/bash
# Grading: runs in the grader beside ns01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of ns01's. The same questions live and after a boot of a copy:
#   what the clients see: from another host of the office network, ns01 answers every name of
#     the inventory with the inventory's address, and only it, over UDP and TCP, and a name the
#     inventory does not have with "no such name";
#   who answers: port 53 (TCP and UDP) is held only by the system's dnsmasq, started the usual
#     way, as the user dnsmasq, after the last change of everything it reads at start;
#   what was repaired: the inventory's export is as exported (content, owner, mode, ACLs), and
#     what dnsmasq obeys of its configuration, read with dnsmasq's own rules (a '#' starts a
#     comment only at the start of a word; quotes; spaces around '='), is ns01's own: the
#     original settings, plus at most settings of where it listens and how it caches.
# All of it in one Python process: the configuration's file names never go into a command line.
# Environment: FL_TARGET, FL_RECORDS ("name=address ..." for every name of the inventory),
# FL_HOSTS_SHA (setup.sh). Exit 0 = fixed; stdout = feedback.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/check.py" <<'PY'
import hashlib, os, random, socket, stat, struct, sys
ns = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "fl.py", "exec"), ns)
Refused = ns["Refused"]
TARGET = os.environ["FL_TARGET"]
CONF, CONF_DIR, HOSTS = "/etc/dnsmasq.conf", "/etc/dnsmasq.d", "/etc/office/hosts"


# ---- what the clients see
def query(name, tcp):
    """The A records ns01 gives NAME, as (rcode, [addresses]), or a word for no answer."""
    qid = random.randrange(65536)
    question = b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\0" + struct.pack(">HH", 1, 1)
    msg = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0) + question
    kind = socket.SOCK_STREAM if tcp else socket.SOCK_DGRAM
    try:
        with socket.socket(socket.AF_INET, kind) as s:
            s.settimeout(2)
            s.connect((ADDRESS, 53))
            if tcp:
                s.sendall(struct.pack(">H", len(msg)) + msg)
                data = b""
                while len(data) < 2 or len(data) < 2 + struct.unpack(">H", data[:2])[0]:
                    chunk = s.recv(4096)
                    if not chunk:
                        return "closed early"
                    data += chunk
                data = data[2:]
            else:
                s.send(msg)
                while True:
                    data = s.recv(4096)
                    if data[:2] == msg[:2]:
                        break
    except ConnectionRefusedError:
        return "refused"
    except socket.timeout:
        return "timeout"
    except OSError as e:
        return f"failed ({e.strerror})"
    _, flags, qd, an, _, _ = struct.unpack(">HHHHHH", data[:12])
    i = 12
    for _ in range(qd):
        i = skip_name(data, i) + 4
    found = []
    for _ in range(an):
        i = skip_name(data, i)
        rtype, _, _, rdlen = struct.unpack(">HHIH", data[i:i + 10])
        i += 10
        if rtype == 1 and rdlen == 4:
            found.append(socket.inet_ntoa(data[i:i + 4]))
        i += rdlen
    return flags & 0xF, sorted(found)


def skip_name(data, i):
    while data[i]:
        if data[i] & 0xC0 == 0xC0:
            return i + 2
        i += 1 + data[i]
    return i + 1


RCODES = {2: "SERVFAIL", 3: "NXDOMAIN (no such name)", 5: "REFUSED"}


def answers():
    global ADDRESS
    try:
        ADDRESS = socket.gethostbyname(TARGET)
    except OSError:
        raise Refused(f"{TARGET} does not resolve from the grader.")
    records = [pair.split("=", 1) for pair in os.environ["FL_RECORDS"].split()]
    for proto in ("udp", "tcp"):
        for name, want in records:
            got = query(name, proto == "tcp")
            if got == "timeout":
                raise Refused(f"ns01 does not answer DNS queries from other hosts of the office network ({proto}, port 53): the query for {name} timed out.")
            if got == "refused":
                raise Refused(f"Nothing on ns01 accepts DNS queries on port 53 from other hosts ({proto}): the query for {name} was refused.")
            if isinstance(got, str):
                raise Refused(f"Asking ns01 for {name} over {proto} {got}.")
            rcode, addresses = got
            if rcode:
                raise Refused(f"ns01 answers {RCODES.get(rcode, f'error {rcode}')} for {name} ({proto}), which is in the office's inventory.")
            if addresses != [want]:
                if len(addresses) > 1:
                    raise Refused(f"ns01 gives {name} more than one address ({proto}): clients are sent to one of them at random, and only the inventory's is right.")
                raise Refused(f"ns01 gives {name} an address the office's inventory does not have for it ({proto}).")
    unknown = f"nx{random.randrange(16**8):08x}.corp.internal"
    got = query(unknown, False)
    if not isinstance(got, tuple) or got != (3, []):
        raise Refused(f"ns01 answers a name the inventory does not have ({unknown}) with {got}: it must say there is no such name.")


# ---- who answers, and what it read at start
def lstat(path):
    parent, name = path.rsplit("/", 1)
    fd, _ = ns["resolve"](parent or "/", want_dir=True)
    try:
        return os.stat(name, dir_fd=fd, follow_symlinks=False)
    finally:
        os.close(fd)


def conf_dir_files():
    """What conf-dir=/etc/dnsmasq.d/,*.conf reads: *.conf, not hidden, regular files (through links)."""
    out = []
    for name in ns["list_dir"](CONF_DIR):
        if name.endswith(".conf") and not name.startswith("."):
            try:
                if stat.S_ISREG(ns["stat_path"](f"{CONF_DIR}/{name}").st_mode):
                    out.append(f"{CONF_DIR}/{name}")
            except FileNotFoundError:
                continue
    return out


def options(text):
    """dnsmasq's read_file: quotes (with \\" \\\\ \\t \\n \\e \\b \\r), '#' a comment only where a word
    starts, blanks around '=' dropped: each line as (option, argument)."""
    out = []
    for line in text.split("\n"):
        chars, white, i = [], True, 0
        while i < len(line):
            c = line[i]
            if c == '"':
                i += 1
                while i < len(line) and line[i] != '"':
                    if line[i] == "\\" and i + 1 < len(line) and line[i + 1] in '"tnebr\\':
                        i += 1
                    chars.append("\0" + line[i])  # quoted: never a separator nor a comment
                    i += 1
                if i >= len(line):
                    raise Refused("A configuration line of dnsmasq has an unclosed quote: dnsmasq refuses it.")
                i += 1
                continue
            if c.isspace():
                chars.append(" ")
                white = True
            elif white and c == "#":
                break
            else:
                chars.append(c)
                white = False
            i += 1
        text_line = "".join(chars).strip(" ")
        if not text_line:
            continue
        if "=" in text_line:
            key, arg = text_line.split("=", 1)
            out.append((key.rstrip(" "), arg.lstrip(" ")))
        else:
            out.append((text_line, None))
    return out


# Settings a repair may add: where dnsmasq listens and how it caches and logs; never what it answers.
MAY_ADD = {"interface", "except-interface", "listen-address", "bind-interfaces", "bind-dynamic", "local-service",
           "no-dhcp-interface", "cache-size", "neg-ttl", "local-ttl", "max-cache-ttl", "log-async", "dns-forward-max",
           "edns-packet-max"}
def main():
    answers()
    if not stat.S_ISREG(lstat(CONF).st_mode):
        raise Refused(f"{CONF} is not a file of its own any more (a link?): dnsmasq's configuration lives there.")
    snippets = conf_dir_files()
    configs = [CONF, CONF_DIR, *snippets, "/etc/office", HOSTS, "/etc/init.d/dnsmasq"]
    pids = ns["verify_listener"](53, "/usr/sbin/dnsmasq", [["/usr/sbin/dnsmasq"]], configs)
    for pid in pids:
        if ns["user_name"](ns["uid_of"](pid)) != "dnsmasq":
            raise Refused(f"dnsmasq runs as {ns['user_name'](ns['uid_of'](pid))}: it must drop to its own user, dnsmasq, as its configuration says.")
    # Every UDP socket on port 53 is dnsmasq's too (a stand-in bound to one address would take the
    # office's UDP queries to that address away from it).
    for table in ("udp", "udp6"):
        try:
            with open(f"{ns['TARGET_NET']}/{table}") as f:
                rows = [line.split() for line in f][1:]
        except FileNotFoundError:
            continue
        for cols in rows:
            if int(cols[1].rsplit(":", 1)[1], 16) == 53 and ns["_address"](cols[1].rsplit(":", 1)[0]) != ns["ENGINE_DNS"]:
                owners = ns["socket_owners"](int(cols[9]))
                if not owners or any(p not in pids for p in owners):
                    raise Refused(f"Something other than dnsmasq (process {' '.join(map(str, owners)) or '?'}) listens for DNS queries on UDP port 53 of ns01.")
    # The export, as exported.
    fd, _ = ns["resolve"](HOSTS)
    try:
        st, digest = os.fstat(fd), hashlib.sha256()
        for chunk in ns["stream"](fd):
            digest.update(chunk)
        acl = ns["_acl_entries"](ns["_xattrs"](fd)[0])
    finally:
        os.close(fd)
    if digest.hexdigest() != os.environ["FL_HOSTS_SHA"]:
        raise Refused(f"{HOSTS} is the inventory's export and was right: it must stay exactly as exported.")
    if (st.st_uid, stat.S_IMODE(st.st_mode)) != (0, 0o644) or acl:
        raise Refused(f"{HOSTS} is the inventory's export: its owner, mode and ACLs stay as exported too (root, 0644, no ACL).")
    # What dnsmasq obeys, against ns01's own configuration.
    theirs = options(ns["read_file"](CONF).decode("utf-8", "replace"))
    for path in snippets:
        theirs += options(ns["read_file"](path).decode("utf-8", "replace"))
    mine = options(open(CONF, encoding="utf-8").read())
    extra = list(theirs)
    for opt in mine:
        if opt not in extra:
            raise Refused(f"dnsmasq answers right, but what it reads no longer has ns01's own setting {opt[0]}{'=' + opt[1] if opt[1] else ''}: repair the fault rather than rewriting its configuration.")
        extra.remove(opt)
    for key, arg in extra:
        if key not in MAY_ADD:
            raise Refused(f"dnsmasq answers right, but its configuration still carries a setting of its own making ({key}), beyond ns01's own: only the fault had to go.")
    # The boot's own scripts as installed (a script of one's own could undo the repair later).
    ns["boot_scripts_pristine"]()


try:
    main()
except Refused as e:
    print(e)
    sys.exit(1)
except OSError as e:
    print(f"The grader could not read what it needs ({e.strerror}).")
    sys.exit(1)
PY
verdict=$(python3 -I -S "$tmp/check.py") || refuse "${verdict:-The grader could not judge ns01 (an error of its own): not graded.}"
echo "ns01 answers the office's clients from the inventory again (UDP and TCP), from dnsmasq itself."
