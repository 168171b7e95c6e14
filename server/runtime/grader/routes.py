# routes: where a host sends replies to the other hosts of its network, for the checks of
# challenges whose routing the player repairs (the prelude writes it to /tmp/routes.py, beside
# fl.py; run as `python3 -I -S /tmp/routes.py HOST "<who the clients are>"`). Every address of the
# network is judged, not only the grader's: live, by the main routing table as the kernel holds it
# (/proc/net/fib_trie: the most specific route to each neighbour must be the network's own link
# route); after a boot, by the kernel itself (inspect.sh applied /etc/network/routes.d as the boot
# does and printed `ip route get` for each neighbour, the routing rules and routes it installed,
# and the first word of every object the files ask `ip -batch` for). The routes other teams need
# (FL_KEEP) must still be installed by the boot.
# Environment: FL_PHASE, FL_NET, FL_ADDRESS, FL_KEEP (JSON list of "type prefix via table");
# FL_INSPECTION (boot). Exit 1 with the verdict's sentence on stdout when replies go astray.
import ipaddress
import json
import os
import sys

HOST = sys.argv[1] if len(sys.argv) > 1 else "this host"
WHO = sys.argv[2] if len(sys.argv) > 2 else "the clients"
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
    for want in json.loads(os.environ["FL_KEEP"]):
        kind, prefix, via, table = want.split()
        if (kind, str(ipaddress.ip_network(prefix)), via, table) not in held:
            target = f"{prefix} {'through ' + via if via != '-' else kind}{'' if table == 'main' else ' in table ' + table}"
            return f"The routing the boot applies no longer has a route other teams need ({target}): only the entries that catch {HOST}'s own network had to go."
    return None


message = boot() if os.environ.get("FL_PHASE") == "boot" else live()
if message:
    print(message)
    sys.exit(1)
