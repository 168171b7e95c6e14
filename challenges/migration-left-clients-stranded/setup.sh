#!/bin/bash
# Injects the faults when a deployment starts (run as root inside the deployment by the platform,
# fed on stdin: never stored in the container). wh02 was built last night from the old host's
# configuration, and three things of the old site came along, all with random values: wms-api
# bound to the old host's address, the firewall rule admitting only the old scanner network, and
# a routing file (one of several kinds, FAULTLINE_FAULT forces one) that sends replies to the new
# scanner network nowhere. Prints the values the check needs as JSON on its last line.
set -euo pipefail
faults=(old_gateway null_routes policy_rule)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
conf=/etc/wms-api/wms-api.conf
rules=/etc/iptables/rules.v4
lib=/var/lib/wms-api
dir=/etc/network/routes.d

port=$(shuf -n1 -e 8080 8081 8088 8090 8181 8280 9080 9090 7001 5080)
metrics=$((9100 + RANDOM % 800))
sed -i -e "s/^port = .*/port = $port/" -e "s/^metrics_port = .*/metrics_port = $metrics/" "$conf"
sed -i -e "s/--dport 8080 /--dport $port /" -e "s/--dport 9100 /--dport $metrics /" "$rules"
instance=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
echo "$instance" >"$lib/instance-id"
item=$(python3 - "$lib/stock.json" <<'PY'
import json, random, sys
items = [{"id": f"SKU-{random.randint(100000, 999999)}", "bin": f"{random.choice('ABCDEFGH')}-{random.randint(1, 40):02d}-{random.randint(1, 6)}", "qty": random.randint(0, 300)} for _ in range(random.randint(25, 45))]
json.dump(items, open(sys.argv[1], "w"), indent=1)
print(random.choice(items)["id"])
PY
)
chown wms:wms "$lib/instance-id" "$lib/stock.json"; chmod 0640 "$lib/instance-id" "$lib/stock.json"

# The old site: its network, the old host's address on it, its router.
old_prefix="10.$((20 + RANDOM % 200)).$((RANDOM % 250))"
old_net="$old_prefix.0/24"; old_ip="$old_prefix.$((20 + RANDOM % 200))"; old_gw="$old_prefix.1"
# 1. wms-api's configuration still names the old host's address.
sed -i "s/^bind = .*/bind = $old_ip/" "$conf"
# 2. The firewall admits the scanners of the old network only.
sed -i "s|^-A INPUT -p tcp -m tcp --dport $port -m comment --comment \"wms-api\"|-A INPUT -s $old_net -p tcp -m tcp --dport $port -m comment --comment \"wms-api\"|" "$rules"
grep -q -- "-s $old_net -p tcp" "$rules" || { echo "setup: the firewall fault did not apply" >&2; exit 1; }

# 3. Routing copied from the old host catches the new scanner network (wh02's own).
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
self=${cidr%/*}; bits=${cidr#*/}
ip2int() { local IFS=.; set -- $1; echo $((($1 << 24) + ($2 << 16) + ($3 << 8) + $4)); }
int2ip() { echo "$(($1 >> 24 & 255)).$(($1 >> 16 & 255)).$(($1 >> 8 & 255)).$(($1 & 255))"; }
size=$((1 << (32 - bits))); base=$(($(ip2int "$self") & ~(size - 1) & 0xffffffff))
low="$(int2ip "$base")/$((bits + 1))"; high="$(int2ip $((base + size / 2)))/$((bits + 1))"
# wh02's address on the warehouse network, as the network team documents it.
printf '# wh02 on the warehouse network (the address is reserved for it).\nauto eth0\niface eth0 inet static\n    address %s\n' "$cidr" >/etc/network/interfaces
# Routes other teams need, which the boot must keep installing (the documentation ranges).
keep_routes=("unreachable 192.0.2.0/24 - main" "unreachable 198.51.100.0/24 - main" "unreachable 203.0.113.0/24 - main")
# What a written answer could name: every address and every network the copied files mention.
addresses=("$old_ip" 10.250.0.10)
networks=("$old_net" 10.250.0.10/32 192.0.2.0/24 198.51.100.0/24 203.0.113.0/24)
case "$fault" in
  old_gateway)
    file=$(shuf -n1 -e 30 50 70)-old-site-$(shuf -n1 -e backup storage mgmt lab).conf
    printf '# Copied from wh01: these networks were reached through the old site router %s\nroute add %s via %s dev eth0 onlink\nroute add %s via %s dev eth0 onlink\n' \
      "$old_gw" "$low" "$old_gw" "$high" "$old_gw" >"$dir/$file"
    addresses+=("$old_gw") ;;
  null_routes)
    file=$(shuf -n1 -e 40 60)-$(shuf -n1 -e abuse-nullroutes blocklist scanner-block).conf
    rnd_net() { echo "$(shuf -n1 -e 45 62 77 91 103 141 185 193 212).$((RANDOM % 256)).$((RANDOM % 256)).$((8 * (RANDOM % 32)))/$(shuf -n1 -e 29 30 32)"; }
    {
      echo "# Copied from wh01: networks the old site null-routed."
      n=$((10 + RANDOM % 10)); a=$((1 + RANDOM % (n - 1))); b=$((1 + RANDOM % (n - 1)))
      for i in $(seq 0 "$n"); do
        [ "$i" = "$a" ] && echo "route add blackhole $low"
        [ "$i" = "$b" ] && echo "route add blackhole $high"
        echo "route add blackhole $(rnd_net)"
      done
    } >"$dir/$file"
    while read -r _ _ kind prefix; do keep_routes+=("$kind $prefix - main"); networks+=("$prefix"); done < <(grep -vwF -e "$low" -e "$high" "$dir/$file" | grep '^route add') ;;
  policy_rule)
    table=$((10 + RANDOM % 240))
    file=$(shuf -n1 -e 20 60)-pbr-old-site.conf
    low="$(int2ip "$base")/$bits"; high=""
    printf '# Copied from wh01: this network left through the old site uplink (table %s)\nroute add unreachable default table %s\nrule add to %s table %s priority %s\n' \
      "$table" "$table" "$low" "$table" "$((100 + RANDOM % 900))" >"$dir/$file"
    keep_routes+=("unreachable 0.0.0.0/0 - $table") ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac

service static-routes start >/dev/null
service firewall start >/dev/null
service wms-api start >/dev/null 2>&1 || true
printf 'rsync -a wh01:/etc/ /etc/  # the new box gets the old configuration\nservice static-routes start\nservice firewall start\nservice wms-api start\nexit\n' >/root/.bash_history
json() { printf '%s\n' "$@" | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().splitlines()))'; }
net=$(python3 -c 'import ipaddress, sys; print(ipaddress.ip_interface(sys.argv[1]).network)' "$cidr")
printf '{"fault":"%s","port":"%s","metrics":"%s","instance":"%s","item":"%s","old_ip":"%s","old_net":"%s","addresses":%s,"networks":%s,"net":"%s","address":"%s","keep":%s}\n' \
  "$fault" "$port" "$metrics" "$instance" "$item" "$old_ip" "$old_net" "$(json "${addresses[@]}")" "$(json "${networks[@]}")" "$net" "$self" "$(json "${keep_routes[@]}")"
