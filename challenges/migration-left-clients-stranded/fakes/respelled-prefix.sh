#!/bin/bash
# Fake: repair the service and the firewall, take the bad routing out of the live tables, and in
# its file write each offending prefix differently, as its two halves: a check that greps the
# files for the prefix finds nothing, the next boot installs the same routes.
conf=/etc/wms-api/wms-api.conf
rules=/etc/iptables/rules.v4
sed -i "s/^bind *=.*/bind = 0.0.0.0/" "$conf"
service wms-api restart
port=$(sed -n "s/^port *= *\([0-9]*\).*/\1/p" "$conf")
metrics=$(sed -n "s/^metrics_port *= *\([0-9]*\).*/\1/p" "$conf")
cidr=$(ip -4 -o addr show scope global | awk "{print \$4; exit}")
sed -i "s|^-A INPUT -s [0-9./]* \(-p tcp -m tcp --dport $port -m comment --comment \"wms-api\"\)|-A INPUT \1|" "$rules"
service firewall restart
for f in /etc/network/routes.d/*.conf; do
  python3 - "$f" "$cidr" <<'PY'
import ipaddress, re, subprocess, sys
path, net = sys.argv[1], ipaddress.ip_interface(sys.argv[2]).network
out = []
for line in open(path).read().splitlines():
    m = re.search(r"\b(\d+\.\d+\.\d+\.\d+/\d+)\b", line)
    p = ipaddress.ip_network(m.group(1), strict=False) if m and not line.lstrip().startswith("#") else None
    if p and p.overlaps(net) and p.prefixlen >= net.prefixlen:
        subprocess.run(["ip"] + line.replace(" add ", " del ", 1).split(), stderr=subprocess.DEVNULL)
        out += [line.replace(m.group(1), str(half)) for half in p.subnets(1)]
    else:
        out.append(line)
open(path, "w").write("\n".join(out) + "\n")
PY
done
ip route flush cache
