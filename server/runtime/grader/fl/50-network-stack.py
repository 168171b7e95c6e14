# ------------------------------------------------------------------ the network, as its kernel holds it

# What `ip rule` holds on a host nobody changed (whitespace aside).
DEFAULT_RULES = {"0: from all lookup local", "32766: from all lookup main", "32767: from all lookup default"}


def _netstate():
    """FL_NETSTATE (netstate.sh, read from inside the host's network namespace) by section."""
    text = os.environ.get("FL_NETSTATE")
    if text is None:
        raise Refused("The grader has no account of this host's network stack: not graded.")
    sections, name = {}, None
    for line in text.splitlines():
        if line.startswith("== "):
            name = line[3:].strip()
            sections[name] = []
        elif name:
            sections[name].append(line)
    if "end" not in sections:
        raise Refused("The grader's account of this host's network stack is incomplete: not graded.")
    return sections


def network_as_built(firewall=None):
    """Refuses a network stack that treats some hosts of the network differently from what the
    check judges: policy rules, traffic control, fixed neighbour entries, an interface without
    ARP, a route (any table, any rule) that sends replies to a neighbour elsewhere or drops its
    packets on arrival, and any packet filter, whatever made it, but the table `firewall`
    ((family, table), e.g. ("ip", "filter"), whose rules the check judges itself from
    iptables-save's account: returned). For the challenges whose player holds NET_ADMIN."""
    s = _netstate()
    for family in ("rules4", "rules6"):
        for line in s.get(family, []):
            rule = " ".join(line.split())
            if rule and rule not in DEFAULT_RULES and "not supported" not in rule:
                raise Refused(f"A routing policy rule is in force ({rule}): it decides where some packets go before any route does. Remove it.")
    for line in s.get("qdisc", []):
        words = line.split()
        if len(words) > 1 and words[1] != "noqueue":
            raise Refused(f"Traffic control is set on this host ({' '.join(words[:6])}): it can delay, drop or redirect some hosts' packets. Remove it.")
    self_dev = next((line.strip() for line in s.get("dev", []) if line.strip()), None)
    if not self_dev:
        raise Refused("This host's address on the network is on none of its interfaces: the other hosts cannot reach it.")
    routes = s.get("routes", [])
    if not routes:
        raise Refused("The grader could not ask this host's kernel where its packets go: not graded.")
    for line in routes:
        way, peer, answer = (line.split(" ", 2) + ["", ""])[:3]
        words = answer.split()
        if way == "out":
            ok = words[:1] == [peer] and "dev" in words and "via" not in words
            dev = words[words.index("dev") + 1] if ok and words.index("dev") + 1 < len(words) else None
            ok = ok and dev == self_dev
            if not ok:
                raise Refused(f"Replies to {peer}, another host of the network, do not go straight to it: the kernel says \"{answer.strip()[:120]}\".")
        elif way == "in":
            if words[:1] != ["local"]:
                raise Refused(f"Packets from {peer}, another host of the network, are not delivered to this host: the kernel says \"{answer.strip()[:120]}\".")
    # A fixed entry for another host of the network (the kernel makes NOARP ones of its own for
    # loopback, broadcast and multicast addresses).
    peers = {line.split(" ", 2)[1] for line in routes if line.count(" ") >= 2}
    for line in s.get("neigh", []):
        if line.split()[:1] and line.split()[0] in peers:
            raise Refused(f"A fixed neighbour entry is set ({line.strip()}): packets to that address go where it says, not where the address is. Remove it.")
    for line in s.get("link", []):
        m = re.match(r"^\d+: ([^:@]+)(@\S+)?: <([^>]*)>", line)
        if m and m.group(1) == self_dev and "NOARP" in m.group(3).split(","):
            raise Refused(f"{self_dev} does not answer ARP: the other hosts cannot find this one. Turn ARP back on.")
    _filters_as_built(s, firewall)
    save = "\n".join(s.get("iptables", []))
    if firewall and re.search(r"incompatible|^# Table", save, re.M):
        raise Refused("The packet filter holds rules iptables cannot show: the check cannot judge them.")
    return save


def _engine_dns_only(rule):
    """A rule that only ever matches packets to or from the engine's DNS (the engine's own NAT of
    127.0.0.11 in every container on a user network): it treats no host of the network."""
    for e in rule.get("expr", []):
        m = e.get("match") if isinstance(e, dict) else None
        left = m.get("left", {}) if isinstance(m, dict) else {}
        payload = left.get("payload", {}) if isinstance(left, dict) else {}
        if m.get("op") == "==" and m.get("right") == ENGINE_DNS and payload.get("protocol") == "ip" and payload.get("field") in ("saddr", "daddr") if m else False:
            return True
    return False


def _filters_as_built(s, firewall):
    try:
        items = json.loads("\n".join(s.get("nft", []))).get("nftables", [])
    except (ValueError, AttributeError):
        raise Refused("The grader could not read this host's packet filters: not graded.")
    tables_with_rules = set()
    for item in items:
        rule = item.get("rule") if isinstance(item, dict) else None
        if rule and not _engine_dns_only(rule):
            tables_with_rules.add((rule.get("family"), rule.get("table")))
    for item in items:
        chain = item.get("chain") if isinstance(item, dict) else None
        if not chain or "hook" not in chain:
            continue
        where = (chain.get("family"), chain.get("table"))
        label = f"{where[0]} {where[1]} {chain.get('name')}"
        if where == firewall:
            # iptables-save's account is the kernel's only when each base chain is iptables' own.
            if chain.get("name") != str(chain.get("hook", "")).upper() or chain.get("type") != "filter" or chain.get("prio") != 0:
                raise Refused(f"The packet filter has a chain iptables does not show as it works (nft chain {label}, hook {chain.get('hook')}): the check cannot judge it.")
            continue
        if chain.get("policy", "accept") != "accept" or where in tables_with_rules:
            raise Refused(f"A packet filter is in force outside the firewall the check judges (nft table {where[0]} {where[1]}): it can drop some hosts' packets. Remove it.")
    for line in s.get("legacy", []):
        if "Permission denied" in line:
            raise Refused("The grader could not read this host's legacy packet filters: not graded.")
        if line.startswith("-A ") or re.match(r"^:\S+ (DROP|REJECT)", line):
            raise Refused("Rules are loaded in the legacy iptables tables: a packet filter the firewall does not manage. Remove them.")


