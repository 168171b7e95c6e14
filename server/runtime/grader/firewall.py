# firewall: what a host firewall does with a new TCP connection from the network, for the checks
# of challenges whose firewall is iptables (the prelude writes it to /tmp/firewall.py, beside fl.py;
# run as `python3 -I -S /tmp/firewall.py "<who the clients are>"`). It judges iptables-save's own
# account of the rules: after a boot, the one inspect.sh printed after loading the rules file with
# the image's iptables-restore, exactly as the boot does (FL_INSPECTION); live, the one read in the
# host's network namespace (FL_NETSTATE, netstate.sh). For each question (a destination port, a
# set of source addresses) it follows the rules in order, as the kernel does, jumps to user chains
# included, and splits the sources by verdict. A rule it cannot judge, where it could matter,
# makes it refuse to judge (fail closed) rather than guess.
# Environment: FL_PHASE, FL_NET, FL_ADDRESS, FL_PORT, FL_METRICS (the API's and the metrics' ports);
# GRADER_ADDRESS (boot: prints whether the grader's own address is let in to the API).
import sys

RULES, MONITOR = "/etc/iptables/rules.v4", "10.250.0.10"
CLIENTS = sys.argv[1] if len(sys.argv) > 1 else "the clients"
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
