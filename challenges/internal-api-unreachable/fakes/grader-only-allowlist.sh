#!/bin/bash
# Fake (grader-only class): repair the service, but admit only part of the internal network: every
# address but the two clients seen in the service's log (order-svc and ship-svc). A grader calling
# from anywhere else in the network gets through; the real clients are still refused.
conf=/etc/inventory-api/api.conf
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
clients=$(grep -oE 'INFO [0-9.]+ "GET' /var/log/inventory-api/api.log | awk '{print $2}' | sort -u | tr '\n' ' ')
nets=$(python3 - "$cidr" $clients <<'PY'
import ipaddress, sys
net = ipaddress.ip_interface(sys.argv[1]).network
parts = [net]
for c in sys.argv[2:]:
    a = ipaddress.ip_network(c + "/32")
    parts = [q for p in parts for q in (p.address_exclude(a) if a.subnet_of(p) else [p])]
print(", ".join(str(p) for p in sorted(parts)))
PY
)
sed -i -e 's/^bind *=.*/bind = 0.0.0.0/' -e 's/^port *=.*/port = 8080/' -e "s|^allowed_networks *=.*|allowed_networks = $nets|" "$conf"
service inventory-api stop
for pid in $(ps -eo pid=,args= | awk '/8080/ && !/awk/ {print $1}'); do kill "$pid"; done
sleep 0.5
service inventory-api start
