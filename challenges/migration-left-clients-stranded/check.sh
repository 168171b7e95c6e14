#!/bin/bash
# Grading: runs in the grader beside wh02 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of wh02's. The player holds NET_ADMIN (routes, packet filters),
# so the check also refuses any listener it does not expect (fl quiet-net). It asks, live and
# after a boot of a copy:
#   what the scanners see: wms-api answers at http://wh02:<port> from another host of wh02's
#     network (the grader calls from an address picked at random), with this deployment's data;
#     the metrics port does NOT answer that host (the firewall stays on);
#   who answers: both ports are held by the system's wms-api program, as its own user, on every
#     address; nothing else listens;
#   where replies go, for EVERY address of wh02's network: live, by the main routing table as the
#     kernel holds it; after a boot, by the kernel itself (inspect.sh applied routes.d as the boot
#     does and asked `ip route get` for each neighbour); the routes other teams need stay;
#   after a boot, what the firewall is: rules.v4 loaded with the image's iptables-restore as the
#     boot does, judged rule by rule as the kernel applies them: the API open to every address of
#     wh02's network, metrics only to the monitoring server, other ports to no one; the boot's own
#     scripts are the installed ones.
# The written answer (the old address and network) is judged by the platform (challenge.yaml).
# Environment (setup.sh): FL_TARGET, FL_PORT, FL_METRICS, FL_INSTANCE, FL_ITEM, FL_NET,
# FL_ADDRESS, FL_KEEP; FL_INSPECTION (boot). Exit 0 = fixed; stdout = feedback.
base="http://${FL_TARGET}:${FL_PORT}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
me=$(hostname -i 2>/dev/null | awk '{print $1}')

# After a boot: the firewall as loaded, judged rule by rule, before anything is called.
api_probe=yes
cat >"$tmp/fw.py" <<'PY'
RULES, CLIENTS, MONITOR = "/etc/iptables/rules.v4", "the scanners", "10.250.0.10"
# What the firewall the boot loads does with a new TCP connection from the network, judged on
# iptables-save's own account of the rules (inspect.sh loaded the rules file with the image's
# iptables-restore, exactly as the boot does, and printed iptables-save). For each question (a
# destination port, a set of source addresses) it follows the rules in order, as the kernel does,
# jumps to user chains included, and splits the sources by verdict. A rule it cannot judge, where
# it could matter, makes it refuse to judge (fail closed) rather than guess.
import ipaddress
import shlex


class CannotJudge(Exception):
    pass


class Addresses:
    """A set of IPv4 addresses as sorted, disjoint, inclusive ranges."""

    def __init__(self, ranges=()):
        self.r = self._norm(list(ranges))

    @staticmethod
    def _norm(ranges):
        out = []
        for lo, hi in sorted(ranges):
            if out and lo <= out[-1][1] + 1:
                out[-1] = (out[-1][0], max(out[-1][1], hi))
            else:
                out.append((lo, hi))
        return out

    @classmethod
    def net(cls, text):
        n = ipaddress.ip_network(text, strict=False)
        return cls([(int(n.network_address), int(n.broadcast_address))])

    @classmethod
    def of(cls, addresses):
        return cls([(int(a), int(a)) for a in addresses])

    def __and__(self, other):
        out = []
        for a, b in self.r:
            for c, d in other.r:
                lo, hi = max(a, c), min(b, d)
                if lo <= hi:
                    out.append((lo, hi))
        return Addresses(out)

    def __or__(self, other):
        return Addresses(self.r + other.r)

    def __sub__(self, other):
        return self & other.complement()

    def complement(self):
        out, start = [], 0
        for lo, hi in self.r:
            if lo > start:
                out.append((start, lo - 1))
            start = hi + 1
        if start <= 0xFFFFFFFF:
            out.append((start, 0xFFFFFFFF))
        return Addresses(out)

    def __bool__(self):
        return bool(self.r)

    def count(self):
        return sum(hi - lo + 1 for lo, hi in self.r)

    def first(self):
        return str(ipaddress.ip_address(self.r[0][0]))


EVERYONE = Addresses([(0, 0xFFFFFFFF)])


def parse(save_text):
    """iptables-save output: {table: {chain: (policy or None, [rule tokens])}}."""
    tables, table = {}, None
    for line in save_text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("*"):
            table = tables.setdefault(line[1:], {})
        elif line == "COMMIT":
            table = None
        elif line.startswith(":") and table is not None:
            name, policy = line[1:].split()[:2]
            table[name] = (None if policy == "-" else policy, [])
        elif line.startswith("-A ") and table is not None:
            words = shlex.split(line)
            table.setdefault(words[1], (None, []))[1].append(words[2:])
        else:
            raise CannotJudge(f"an unexpected line in the rules: {line[:80]}")
    return tables


def _ports(text):
    lo, _, hi = text.partition(":")
    return int(lo or 0), int(hi or lo or 65535)


def match(words, sources, q):
    """The part of `sources` that this rule's matches take (the target's words excluded), for the
    question q = {"port", "dst", "iface"}: a new TCP connection (a SYN) coming in on q["iface"]."""
    i, neg, unknown = 0, False, []
    while i < len(words):
        w = words[i]
        if w == "!":
            neg = True
            i += 1
            continue
        if w in ("-j", "-g"):
            break
        arg = words[i + 1] if i + 1 < len(words) else ""
        took = 2
        if w in ("-s", "--source"):
            s = Addresses()
            for part in arg.split(","):
                s = s | Addresses.net(part)
            sources = sources - s if neg else sources & s
        elif w in ("-d", "--destination"):
            hit = any(ipaddress.ip_address(q["dst"]) in ipaddress.ip_network(p, strict=False) for p in arg.split(","))
            if hit == neg:
                return Addresses()
        elif w in ("-p", "--protocol"):
            hit = arg.lower() in ("tcp", "6", "all", "0")
            if hit == neg:
                return Addresses()
        elif w in ("-i", "--in-interface"):
            hit = q["iface"].startswith(arg[:-1]) if arg.endswith("+") else q["iface"] == arg
            if hit == neg:
                return Addresses()
        elif w in ("-f", "--fragment"):
            took = 1
            if not neg:  # a connection's first packet is never a later fragment
                return Addresses()
        elif w in ("-m", "--match"):
            pass  # the module's options follow; each is judged on its own
        elif w in ("--dport", "--destination-port"):
            lo, hi = _ports(arg)
            if (lo <= q["port"] <= hi) == neg:
                return Addresses()
        elif w in ("--dports", "--destination-ports"):
            if any(lo <= q["port"] <= hi for lo, hi in map(_ports, arg.split(","))) == neg:
                return Addresses()
        elif w == "--ports":
            hit = any(lo <= q["port"] <= hi for lo, hi in map(_ports, arg.split(",")))
            if hit and neg:
                return Addresses()
            if not hit:
                unknown.append(w)  # it may still match on the client's own port
        elif w == "--tcp-flags":
            mask, comp = (set(x.split(",")) for x in (arg, words[i + 2]))
            took = 3
            flags = {"SYN"}
            if "ALL" in mask:
                mask = {"FIN", "SYN", "RST", "PSH", "ACK", "URG"}
            if "NONE" in comp:
                comp = set()
            if ((flags & mask) == comp) == neg:
                return Addresses()
        elif w == "--syn":
            took = 1
            if neg:
                return Addresses()
        elif w in ("--ctstate", "--state"):
            if ("NEW" in arg.split(",")) == neg:
                return Addresses()
        elif w == "--comment":
            pass
        elif w == "--src-range":
            lo, _, hi = arg.partition("-")
            s = Addresses([(int(ipaddress.ip_address(lo)), int(ipaddress.ip_address(hi or lo)))])
            sources = sources - s if neg else sources & s
        elif w == "--dst-range":
            lo, _, hi = arg.partition("-")
            hit = int(ipaddress.ip_address(lo)) <= int(ipaddress.ip_address(q["dst"])) <= int(ipaddress.ip_address(hi or lo))
            if hit == neg:
                return Addresses()
        elif w == "--dst-type":
            if ("LOCAL" in arg.split(",")) == neg:
                return Addresses()
        else:
            unknown.append(w)
            took = 1
        neg = False
        i += took
    if unknown and sources:
        raise CannotJudge(f"the rule \"{' '.join(words)[:120]}\" matches on {' '.join(unknown)}, which the check does not judge")
    return sources


def target(words):
    for j, w in enumerate(words):
        if w in ("-j", "-g"):
            if w == "-g":
                raise CannotJudge(f"the rule \"{' '.join(words)[:120]}\" uses goto, which the check does not judge")
            return words[j + 1]
    return None


def run(table, chain, sources, q, depth=0):
    """{verdict: Addresses} for `sources` entering `chain`; "RETURN" for what a user chain gives back."""
    if depth > 20:
        raise CannotJudge("user chains nest too deep")
    policy, rules = table[chain]
    out = {"ACCEPT": Addresses(), "DROP": Addresses(), "REJECT": Addresses(), "RETURN": Addresses()}
    remaining = sources
    for words in rules:
        if not remaining:
            break
        taken = match(words, remaining, q)
        if not taken:
            continue
        t = target(words)
        if t in ("ACCEPT", "DROP", "REJECT"):
            out[t] = out[t] | taken
            remaining = remaining - taken
        elif t == "RETURN":
            out["RETURN"] = out["RETURN"] | taken
            remaining = remaining - taken
        elif t in (None, "LOG", "NFLOG"):
            continue
        elif t in table and table[t][0] is None:
            sub = run(table, t, taken, q, depth + 1)
            for v in ("ACCEPT", "DROP", "REJECT"):
                out[v] = out[v] | sub[v]
            remaining = (remaining - taken) | sub["RETURN"]
        else:
            raise CannotJudge(f"the rule \"{' '.join(words)[:120]}\" jumps to {t}, which the check does not judge")
    if policy is None:
        out["RETURN"] = out["RETURN"] | remaining
    else:
        if policy not in ("ACCEPT", "DROP"):
            raise CannotJudge(f"the policy {policy} of {chain}")
        out[policy] = out[policy] | remaining | out["RETURN"]
        out["RETURN"] = Addresses()
    return out


# The engine's embedded DNS (127.0.0.11) redirects the host's own queries with NAT rules of its
# own in every container; they touch no other traffic.
ENGINE_DNS = "127.0.0.11/32"


def _engine(words):
    return any(w in ("-d", "-s") and words[i + 1:i + 2] == [ENGINE_DNS] for i, w in enumerate(words))


def accepted(tables, sources, port, dst, iface="eth0"):
    """The sources whose new TCP connection to `port` the firewall lets through to the host. The
    filter table's INPUT chain decides; every other chain on the way in or out must let
    everything pass (a host firewall of this kind has nothing there)."""
    for name, table in tables.items():
        for chain, (policy, rules) in table.items():
            if policy is None or (name == "filter" and chain in ("INPUT", "FORWARD")):
                continue
            if policy != "ACCEPT":
                raise CannotJudge(f"the {name} table's {chain} chain has the policy {policy}, which a host firewall of this kind never has")
            for words in rules:
                if not _engine(words):
                    raise CannotJudge(f"the {name} table's {chain} chain has rules of its own (\"{' '.join(words)[:100]}\"), which a host firewall of this kind never has")
    filt = tables.get("filter")
    if not filt or "INPUT" not in filt:
        return sources
    return run(filt, "INPUT", sources, {"port": port, "dst": dst, "iface": iface})["ACCEPT"] & sources



# ---- the questions of this challenge
import os
import sys

def netstate_section(name):
    """One section of FL_NETSTATE: the live host's network stack as its kernel holds it."""
    out, on = [], False
    for line in os.environ.get("FL_NETSTATE", "").splitlines():
        if line.startswith("== "):
            on = line[3:].strip() == name
        elif on:
            out.append(line)
    return "\n".join(out)


def main():
    if os.environ.get("FL_PHASE") == "live":
        # The rules in force now (a rule added by hand counts as much as one from the file).
        where, save = "running now", netstate_section("iptables")
    else:
        where = f"the boot loads from {RULES}"
        inspection = os.environ.get("FL_INSPECTION", "")
        head, _, save = inspection.partition("\n")
        if head.strip() != "firewall-load: ok":
            why = save.strip().splitlines()[0][:160] if save.strip() else "no reason given"
            return f"{RULES} does not load ({why}): at boot the firewall would come up empty, with every port open to everyone."
    try:
        tables = parse(save)
        net = ipaddress.ip_network(os.environ["FL_NET"])
        me = os.environ["FL_ADDRESS"]
        clients = Addresses.of(a for a in net.hosts() if str(a) != me)
        port, metrics = int(os.environ["FL_PORT"]), int(os.environ["FL_METRICS"])
        let_in = accepted(tables, clients, port, me)
        if clients - let_in:
            shut = clients - let_in
            return f"The firewall {where} does not let {CLIENTS} in: new connections to port {port} from {shut.count()} of the {clients.count()} addresses of the network (e.g. {shut.first()}) are dropped or refused."
        leak = accepted(tables, clients, metrics, me)
        if leak:
            return f"The firewall {where} lets other hosts than the monitoring server reach the metrics port {metrics} ({leak.count()} addresses of the network, e.g. {leak.first()}): it must stay closed to them."
        if not accepted(tables, Addresses.net(MONITOR + "/32"), metrics, me):
            return f"The firewall {where} shuts the monitoring server ({MONITOR}) out of the metrics port {metrics}: it must keep scraping."
        others = [22, 80, 443, 1 + (port + metrics) % 1000 + 20000]
        for other in others:
            if other in (port, metrics):
                continue
            open_to = accepted(tables, clients, other, me)
            if open_to:
                return f"The firewall {where} accepts new connections to port {other} from the network (e.g. {open_to.first()}): it must keep dropping what it does not allow, the firewall stays."
        grader = os.environ.get("GRADER_ADDRESS", "")
        if grader:
            print("grader " + ("admitted" if accepted(tables, Addresses.net(grader + "/32"), port, me) else "refused"))
    except CannotJudge as e:
        return f"The check cannot judge the firewall {where}: {e}. Keep the rules to addresses, protocols, ports and connection states."
    except (ValueError, IndexError) as e:
        return f"The check cannot read the firewall's rules as iptables-save gives them ({e})."
    return None


message = main()
if message:
    print(message)
    sys.exit(1)
PY
if [ "$FL_PHASE" = boot ]; then
  firewall=${FL_INSPECTION%%$'\n'---routing*}
  verdict=$(FL_INSPECTION=$firewall GRADER_ADDRESS=$me python3 -I -S "$tmp/fw.py") || refuse "${verdict:-The grader could not judge the firewall rules: not graded.}"
  # The copy is on a network of its own: the grader calls the API only where the rules admit it.
  [ "$verdict" = "grader admitted" ] || api_probe=no
else
  # Live: iptables-save's account of the rules in force, read inside wh02's network namespace.
  verdict=$(python3 -I -S "$tmp/fw.py") || refuse "${verdict:-The grader could not judge the firewall rules: not graded.}"
fi

get() {
  code=$(fetch "$base$1" -sS --connect-timeout 3 --max-time 5 -D "$tmp/headers" -o "$tmp/body" -w '%{http_code}' 2>"$tmp/err")
  rc=$?
}
if [ "$api_probe" = yes ]; then
  get /health
  case $rc in
    0) ;;
    7) refuse "The scanners' connections to $base are refused (from another host of wh02's network)." ;;
    28) refuse "The scanners' connections to $base time out: no answer ever comes back to wh02's network." ;;
    *) refuse "Calling $base/health from another host failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")" ;;
  esac
  grep -qi '^server: wms-api/' "$tmp/headers" || refuse "Something answers on port $FL_PORT of $FL_TARGET, but it is not wms-api."
  body=$(cat "$tmp/body")
  [ "$code" = 200 ] && [[ "$body" == *"\"instance\": \"$FL_INSTANCE\""* ]] || refuse "Port $FL_PORT answers HTTP $code, but not with this host's wms-api."
  get "/v1/stock/$FL_ITEM"
  body=$(cat "$tmp/body")
  [ "$rc" = 0 ] && [ "$code" = 200 ] && [[ "$body" == *"\"$FL_ITEM\""* ]] || refuse "/health answers, but the stock lookups of $base do not return this host's stock."
fi

# Who answers, nothing else listening, the boot's own scripts, and the metrics port closed to
# this host: one Python process over fl's functions.
cat >"$tmp/who.py" <<'PY'
SERVICE, USER, PORT_VALUES, METRICS = "wms-api", "wms", ("PORT", "METRICS"), True
ARGV = ["/usr/bin/python3", "-I", "-S", "/usr/lib/wms-api/wms_api.py", "/etc/wms-api/wms-api.conf"]
CONF = ["/etc/wms-api", "/etc/wms-api/wms-api.conf"]
BOOT_FILES = ["/etc/init.d", *(f"/etc/rc{r}.d" for r in "0123456S"), "/etc/rc.local", "/etc/alternatives/iptables",
              "/etc/alternatives/iptables-restore", "/etc/alternatives/iptables-save"]
import os, socket, sys
ns = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "fl.py", "exec"), ns)
Refused = ns["Refused"]
PORTS = [int(os.environ[f"FL_{name}"]) for name in PORT_VALUES]


def main():
    # Nothing but the service listens (a packet filter rule could send the clients elsewhere).
    ns["quiet_net"]({str(p) for p in PORTS})
    # Nothing else of the network stack treats some hosts differently (policy rules, traffic
    # control, neighbour entries, routes, packet filters other than the firewall judged above).
    ns["network_as_built"](firewall=("ip", "filter"))
    for port in PORTS:
        for pid in ns["verify_listener"](port, "/usr/bin/python3.11", [ARGV], CONF):
            user = ns["user_name"](ns["uid_of"](pid))
            if user != USER:
                raise Refused(f"{SERVICE} runs as {user}; it must run as its own user, {USER} (use its service script).")
        for addr, _, _ in ns["listeners"](port):
            if addr != "0.0.0.0":
                raise Refused(f"{SERVICE} listens on {addr}:{port} only: it must listen on every address of its host (bind = 0.0.0.0), as configured.")
    if os.environ.get("FL_PHASE") == "boot":
        for path in BOOT_FILES:
            ns["pristine"](path)
    if METRICS:
        # The metrics port stays closed to this host, from where the API answered: a connection
        # to it is refused or never answered.
        s = socket.socket()
        s.settimeout(1.5)
        try:
            s.connect((os.environ["FL_TARGET"], int(os.environ["FL_METRICS"])))
            raise Refused(f"The API answers, but so does the metrics port {os.environ['FL_METRICS']}, from a host that is not the monitoring server: the firewall must keep protecting it.")
        except (ConnectionRefusedError, socket.timeout):
            pass
        finally:
            s.close()


try:
    main()
except Refused as e:
    print(e)
    sys.exit(1)
except OSError as e:
    print(f"The grader could not read what it needs ({e.strerror or e}).")
    sys.exit(1)
PY
who=$(python3 -I -S "$tmp/who.py") || refuse "${who:-The grader could not judge who answers: not graded.}"

# Where replies to the neighbours go (live: the main table; after a boot: the kernel's decision).
cat >"$tmp/routes.py" <<'PY'
HOST, WHO = "wh02", "the scanners"
import ipaddress, os, sys
ns = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "fl.py", "exec"), ns)
NET = ipaddress.ip_network(os.environ["FL_NET"])
ME = ipaddress.ip_address(os.environ["FL_ADDRESS"])
PEERS = [a for a in NET.hosts() if a != ME]
ROUTE_TYPES = {"unicast", "local", "broadcast", "multicast", "blackhole", "unreachable", "prohibit", "throw", "nat", "anycast"}


def fib_main():
    """The main table as the kernel holds it (/proc/net/fib_trie): [(network, scope, type)]."""
    entries, table, key = [], None, None
    with open(f"{ns['TARGET_NET']}/fib_trie") as f:
        for line in f:
            if not line.startswith(" "):
                table = line.strip().rstrip(":")
                continue
            words = line.split()
            if words[0] in ("|--", "+--"):
                key = words[1].split("/")[0]
            elif words[0].startswith("/") and table == "Main" and key:
                entries.append((ipaddress.ip_network(f"{key}{words[0]}", strict=False), words[1], words[2]))
    return entries


def live():
    """How the host would route a reply to each neighbour by its main table: the most specific
    route covering it must be the network itself (a link route), not a black hole, an unreachable
    route or a gateway."""
    entries = fib_main()
    astray = []
    for peer in PEERS:
        covering = [e for e in entries if peer in e[0]]
        if not covering:
            astray.append((peer, "no route at all"))
            continue
        best = max(e[0].prefixlen for e in covering)
        kinds = {(scope, kind) for net, scope, kind in covering if net.prefixlen == best}
        if kinds != {("link", "UNICAST")}:
            how = [f"route {n} through a gateway" if k == "UNICAST" else f"{k.lower()} route {n}" for n, s, k in covering if n.prefixlen == best and (s, k) != ("link", "UNICAST")]
            astray.append((peer, ", ".join(how)))
    if astray:
        peer, how = astray[0]
        return f"{HOST} would not send replies to {len(astray)} of the {len(PEERS)} other addresses of its network straight to them (e.g. {peer}: {how}): {WHO}' calls there hang."
    return None


def parse_route(line):
    words = line.split()
    kind = words.pop(0) if words[0] in ROUTE_TYPES else "unicast"
    prefix = words.pop(0)
    prefix = "0.0.0.0/0" if prefix == "default" else prefix
    attrs, i = {}, 0
    while i < len(words):
        if words[i] in ("via", "dev", "table", "proto", "scope", "src", "metric") and i + 1 < len(words):
            attrs[words[i]] = words[i + 1]
            i += 2
        else:
            i += 1
    return kind, str(ipaddress.ip_network(prefix, strict=False)), attrs.get("via", "-"), attrs.get("table", "main")


def boot():
    lines = os.environ.get("FL_INSPECTION", "").splitlines()
    documented = lines[0].split(" ", 1)[1] if lines and lines[0].startswith("address ") else "none"
    if documented != f"{ME}/{NET.prefixlen}":
        return f"The check cannot test {HOST}'s routing: /etc/network/interfaces no longer gives {HOST}'s address on its network ({ME}/{NET.prefixlen}). Put it back."
    if "address-refused" in lines:
        return f"The check could not put {HOST}'s address back on a copy of its disk to test its routing: not graded."
    gets = {l.split()[1]: l.split(" ", 2)[2] if len(l.split(" ", 2)) > 2 else "" for l in lines if l.startswith("get ")}
    astray = []
    for peer in PEERS:
        said = gets.get(str(peer), "no answer")
        words = said.split()
        direct = words[:1] == [str(peer)] and "via" not in words and "dev" in words and words[words.index("dev") + 1] == "eth0"
        if not direct:
            astray.append((peer, said.replace("RTNETLINK answers: ", "")))
    if astray:
        peer, how = astray[0]
        return f"With the routing the boot applies from /etc/network/routes.d, {HOST} would not send replies to {len(astray)} of the {len(PEERS)} other addresses of its network straight to them (e.g. {peer}: \"{how[:100]}\"): {WHO}' calls would hang again."
    # The boot's `ip -batch` obeys any ip command: a neighbour entry, an IPsec policy or a link
    # setting sends replies astray where `ip route get` still says "straight out of eth0".
    for word in (l[7:] for l in lines if l.startswith("object ")):
        if word not in ("r", "ro", "rou", "rout", "route", "ru", "rul", "rule"):
            return f"A file of /etc/network/routes.d asks the boot for more than routes and routing rules (\"{word[:40]}\"): keep those files to routes and rules."
    for line in (l[5:] for l in lines if l.startswith("rule ")):
        selectors = set(line.split()) & {"uidrange", "ipproto", "sport", "dport", "fwmark", "tos", "dsfield", "oif", "l3mdev"}
        if selectors:
            return f"The check cannot judge the routing rule \"{line.strip()[:100]}\" (it selects on {', '.join(sorted(selectors))}): keep the routing rules to addresses."
    held = {parse_route(l[6:]) for l in lines if l.startswith("route ")}
    for want in __import__("json").loads(os.environ["FL_KEEP"]):
        kind, prefix, via, table = want.split()
        if (kind, str(ipaddress.ip_network(prefix)), via, table) not in held:
            target = f"{prefix} {'through ' + via if via != '-' else kind}{'' if table == 'main' else ' in table ' + table}"
            return f"The routing the boot applies no longer has a route other teams need ({target}): only the entries that catch {HOST}'s own network had to go."
    return None


message = boot() if os.environ.get("FL_PHASE") == "boot" else live()
if message:
    print(message)
    sys.exit(1)
PY
routing=${FL_INSPECTION:-}
routing=${routing#*$'\n'---routing$'\n'}
verdict=$(FL_INSPECTION=$routing python3 -I -S "$tmp/routes.py") || refuse "${verdict:-The grader could not judge the routing: not graded.}"
echo "The scanners reach wms-api at $base again, the metrics stay private, and nothing of the old site is left to cut them off at the next boot."
