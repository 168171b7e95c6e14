#!/bin/bash
# Fake: take the bad routing out of the live tables (the clients get through now), and in its file
# write each offending prefix differently, as its two halves: a check that greps the files for
# the prefix finds nothing, the next boot installs the same black hole.
dir=/etc/network/routes.d
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
for f in "$dir"/*.conf; do
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
