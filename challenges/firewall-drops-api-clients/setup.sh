#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment by the platform,
# fed on stdin: never stored in the container). orders-api's ports and data are random per
# deployment; one of several mistakes in the host firewall's rules is picked (FAULTLINE_FAULT
# forces one, for tests) and loaded, so the shop's front ends cannot reach the API any more.
# Prints the values the check needs as JSON on its last line.
set -euo pipefail
faults=(port_typo scanner_block old_source wrong_protocol)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
conf=/etc/orders-api/orders-api.conf
rules=/etc/iptables/rules.v4
lib=/var/lib/orders-api

port=$(shuf -n1 -e 8080 8081 8088 8443 8800 8880 9000 9080 9090 7070 7080 3000 5000)
port=$((port + 0))
metrics=$((9100 + RANDOM % 800))
sed -i -e "s/^port = .*/port = $port/" -e "s/^metrics_port = .*/metrics_port = $metrics/" "$conf"
sed -i -e "s/--dport 8080 /--dport $port /" -e "s/--dport 9100 /--dport $metrics /" "$rules"

instance=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
echo "$instance" >"$lib/instance-id"
order=$(python3 - "$lib/orders.json" <<'PY'
import json, random, sys
orders = [{"id": f"ORD-{random.randint(100000, 999999)}", "total": round(random.uniform(5, 900), 2), "state": random.choice(["paid", "shipped", "packed"])} for _ in range(random.randint(20, 40))]
json.dump(orders, open(sys.argv[1], "w"), indent=1)
print(random.choice(orders)["id"])
PY
)
chown orders:orders "$lib/instance-id" "$lib/orders.json"; chmod 0640 "$lib/instance-id" "$lib/orders.json"

# The clients: the deployment's own network (the shop's application network).
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
self=${cidr%/*}
api_rule="-A INPUT -p tcp -m tcp --dport $port -m comment --comment \"orders-api\" -j ACCEPT"
grep -qxF -- "$api_rule" "$rules" || { echo "setup: the API rule is not in $rules" >&2; exit 1; }
case "$fault" in
  port_typo)
    bad=$(echo "$port" | sed 's/\(.\)\(.\)$/\2\1/'); [ "$bad" = "$port" ] && bad=$((port + 1))
    sed -i "s/--dport $port -m comment --comment \"orders-api\"/--dport $bad -m comment --comment \"orders-api\"/" "$rules" ;;
  scanner_block)
    # Someone blocked "a scanner" by its network, which is the shop's own.
    case $((RANDOM % 2)) in
      0) block="${self%.*}.0/24" ;;
      *) block="$(cut -d. -f1-2 <<<"$self").0.0/16" ;;
    esac
    ticket=$((1000 + RANDOM % 9000))
    sed -i "/^-A INPUT -p icmp -j ACCEPT\$/a -A INPUT -s $block -m comment --comment \"SEC-$ticket block port scanner\" -j DROP" "$rules" ;;
  old_source)
    # The rule from before the network move: only the old application network is allowed.
    old="10.$((20 + RANDOM % 200)).$((RANDOM % 250)).0/24"
    sed -i "s|^-A INPUT -p tcp -m tcp --dport $port -m comment|-A INPUT -s $old -p tcp -m tcp --dport $port -m comment|" "$rules" ;;
  wrong_protocol)
    sed -i "s/^-A INPUT -p tcp -m tcp --dport $port -m comment/-A INPUT -p udp -m udp --dport $port -m comment/" "$rules" ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac

service orders-api start >/dev/null
service firewall start >/dev/null
printf 'cd /etc/iptables\nvi rules.v4\nservice firewall restart\ncurl -s localhost:%s/health\nexit\n' "$port" >/root/.bash_history
net=$(python3 -c 'import ipaddress, sys; print(ipaddress.ip_interface(sys.argv[1]).network)' "$cidr")
printf '{"fault":"%s","port":"%s","metrics":"%s","instance":"%s","order":"%s","net":"%s","address":"%s"}\n' "$fault" "$port" "$metrics" "$instance" "$order" "$net" "$self"
