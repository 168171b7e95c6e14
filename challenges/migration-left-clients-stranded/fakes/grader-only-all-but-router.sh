#!/bin/bash
# Fake (grader-only class): repair the service and the routing, and let through the firewall every
# address a grader can call from (the network's free addresses) and nothing more: the network's
# first address, its router, stays refused, live and in the file the next boot loads.
conf=/etc/wms-api/wms-api.conf
rules=/etc/iptables/rules.v4
sed -i "s/^bind *=.*/bind = 0.0.0.0/" "$conf"
service wms-api restart
port=$(sed -n "s/^port *= *\([0-9]*\).*/\1/p" "$conf")
metrics=$(sed -n "s/^metrics_port *= *\([0-9]*\).*/\1/p" "$conf")
cidr=$(ip -4 -o addr show scope global | awk "{print \$4; exit}")
router=$(python3 -c 'import ipaddress, sys; print(next(ipaddress.ip_interface(sys.argv[1]).network.hosts()))' "$cidr")
sed -i "s|^-A INPUT -s [0-9./]* \(-p tcp -m tcp --dport $port -m comment --comment \"wms-api\" -j ACCEPT\)|-A INPUT -s $router/32 -p tcp -m tcp --dport $port -j REJECT --reject-with tcp-reset\n-A INPUT \1|" "$rules"
service firewall restart
# The routing: the lines that catch the network out of their files, and out of the live tables.
for f in /etc/network/routes.d/*.conf; do
  python3 - "$f" "$cidr" <<'PY'
import ipaddress, re, subprocess, sys
path, net = sys.argv[1], ipaddress.ip_interface(sys.argv[2]).network
keep = []
for line in open(path).read().splitlines():
    m = re.search(r"\b(\d+\.\d+\.\d+\.\d+/\d+)\b", line)
    p = ipaddress.ip_network(m.group(1), strict=False) if m and not line.lstrip().startswith("#") else None
    if p and p.overlaps(net) and p.prefixlen >= net.prefixlen:
        subprocess.run(["ip"] + line.replace(" add ", " del ", 1).split(), stderr=subprocess.DEVNULL)
    else:
        keep.append(line)
open(path, "w").write("\n".join(keep) + "\n")
PY
done
