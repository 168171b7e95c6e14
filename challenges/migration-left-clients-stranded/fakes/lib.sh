#!/bin/bash
# Run before each fake (server/library/challenges.ts, loadFakes): what several of them share,
# defined here and done only where a fake calls it.
conf=/etc/wms-api/wms-api.conf
rules=/etc/iptables/rules.v4
# The service repaired (its bind address), and what the other layers' tricks need: its port, its
# metrics port, wh02's address on its network.
fix_service() {
  sed -i "s/^bind *=.*/bind = 0.0.0.0/" "$conf"
  service wms-api restart
  port=$(sed -n "s/^port *= *\([0-9]*\).*/\1/p" "$conf")
  metrics=$(sed -n "s/^metrics_port *= *\([0-9]*\).*/\1/p" "$conf")
  cidr=$(ip -4 -o addr show scope global | awk "{print \$4; exit}")
}
# The routing: the lines that catch the network out of their files, and out of the live tables;
# `drop_routes respell` writes each such line again in its file, as its prefix's two halves.
drop_routes() {
  for f in /etc/network/routes.d/*.conf; do
    python3 - "$f" "$cidr" "${1:-}" <<'PY'
import ipaddress, re, subprocess, sys
path, net, respell = sys.argv[1], ipaddress.ip_interface(sys.argv[2]).network, sys.argv[3] == "respell"
out = []
for line in open(path).read().splitlines():
    m = re.search(r"\b(\d+\.\d+\.\d+\.\d+/\d+)\b", line)
    p = ipaddress.ip_network(m.group(1), strict=False) if m and not line.lstrip().startswith("#") else None
    if p and p.overlaps(net) and p.prefixlen >= net.prefixlen:
        subprocess.run(["ip"] + line.replace(" add ", " del ", 1).split(), stderr=subprocess.DEVNULL)
        if respell:
            out += [line.replace(m.group(1), str(half)) for half in p.subnets(1)]
    else:
        out.append(line)
open(path, "w").write("\n".join(out) + "\n")
PY
  done
}
