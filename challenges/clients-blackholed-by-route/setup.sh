#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment by the platform,
# fed on stdin: never stored in the container). billing-api's port and data are random; one of
# several routing mistakes (FAULTLINE_FAULT forces one, for tests) is written to a randomly named
# file of /etc/network/routes.d and applied, so replies to the front ends on billing01's own
# network never leave. Prints the values the check needs as JSON on its last line.
set -euo pipefail
faults=(null_routes dead_gateway policy_rule)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
conf=/etc/billing-api/billing-api.conf
lib=/var/lib/billing-api
dir=/etc/network/routes.d

port=$(shuf -n1 -e 8080 8081 8090 8443 8888 9000 9443 7000 6080 4000 5001)
sed -i "s/^port = .*/port = $port/" "$conf"
instance=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
echo "$instance" >"$lib/instance-id"
invoice=$(python3 - "$lib/invoices.json" <<'PY'
import json, random, sys
inv = [{"id": f"INV-{random.randint(2025000, 2025999)}", "amount": round(random.uniform(10, 5000), 2), "currency": "EUR"} for _ in range(random.randint(15, 30))]
json.dump(inv, open(sys.argv[1], "w"), indent=1)
print(random.choice(inv)["id"])
PY
)
chown billing:billing "$lib/instance-id" "$lib/invoices.json"; chmod 0640 "$lib/instance-id" "$lib/invoices.json"

# The front ends are on billing01's own network; its two halves (/29) are what the faults catch.
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
self=${cidr%/*}; bits=${cidr#*/}
ip2int() { local IFS=.; set -- $1; echo $((($1 << 24) + ($2 << 16) + ($3 << 8) + $4)); }
int2ip() { echo "$(($1 >> 24 & 255)).$(($1 >> 16 & 255)).$(($1 >> 8 & 255)).$(($1 & 255))"; }
size=$((1 << (32 - bits)))
base=$(($(ip2int "$self") & ~(size - 1) & 0xffffffff))
half=$((bits + 1))
low="$(int2ip "$base")/$half"; high="$(int2ip $((base + size / 2)))/$half"
day=$(date -d "-$((1 + RANDOM % 9)) days" +%Y-%m-%d)

# billing01's address on the application network, as the network team documents it.
printf '# billing01 on the application network (the address is reserved for it).\nauto eth0\niface eth0 inet static\n    address %s\n' "$cidr" >/etc/network/interfaces
# Other teams' routing, which must stay: one or two files through gateways of the network.
keep_routes=()
for team in $(shuf -n $((1 + RANDOM % 2)) -e backup monitoring office-vpn); do
  gw=$(int2ip $((base + size - 3 - ${#keep_routes[@]}))); dest="10.$((20 + RANDOM % 200)).0.0/16"
  printf '# The %s team: their networks are reached through %s (%s).\nroute add %s via %s dev eth0 onlink\n' "$team" "$gw" "$day" "$dest" "$gw" \
    >"$dir/$(shuf -n1 -e 15 25 35 45 55 65)-$team.conf"
  keep_routes+=("unicast $dest $gw main")
done
rnd_net() { echo "$(shuf -n1 -e 45 62 77 80 91 103 141 185 193 194 212 217).$((RANDOM % 256)).$((RANDOM % 256)).$((8 * (RANDOM % 32)))/$(shuf -n1 -e 29 29 30 32)"; }
case "$fault" in
  null_routes)
    # The abuse team's feed of networks to null-route, which this time holds the shop's own.
    file=$(shuf -n1 -e 40 50 60)-$(shuf -n1 -e abuse-nullroutes ddos-blocklist scanner-nullroutes abuse-feed).conf
    {
      echo "# Imported from the abuse team's feed on $day: null-route these networks (scanners, credential stuffing)."
      n=$((12 + RANDOM % 12)); a=$((1 + RANDOM % (n - 1))); b=$((1 + RANDOM % (n - 1)))
      for i in $(seq 0 "$n"); do
        [ "$i" = "$a" ] && echo "route add blackhole $low"
        [ "$i" = "$b" ] && echo "route add blackhole $high"
        echo "route add blackhole $(rnd_net)"
      done
    } >"$dir/$file"
    # What must stay of the feed once the shop's networks are out of it.
    while read -r _ _ kind prefix; do keep_routes+=("$kind $prefix - main"); done < <(grep -vwF -e "$low" -e "$high" "$dir/$file" | grep '^route add')
    ;;
  dead_gateway)
    # A site-to-site VPN whose "office networks" include the shop's own, through a hop that is gone.
    site=$(shuf -n1 -e hamburg lyon graz leeds porto gdansk)
    file=$(shuf -n1 -e 30 70)-vpn-$site.conf
    gw=$(int2ip $((base + size - 2)))
    printf '# Site-to-site VPN to the %s office (%s): its networks go through the VPN concentrator\nroute add %s via %s dev eth0 onlink\nroute add %s via %s dev eth0 onlink\nroute add 10.%s.0.0/16 via %s dev eth0 onlink\n' \
      "$site" "$day" "$low" "$gw" "$high" "$gw" "$((100 + RANDOM % 100))" "$gw" >"$dir/$file"
    # The office's own network stays routed through the VPN.
    keep_routes+=("unicast $(grep -oE '10\.[0-9]+\.0\.0/16' "$dir/$file") $gw main")
    ;;
  policy_rule)
    # Policy routing meant for the backup network, written with the shop's network instead.
    ticket=$((1000 + RANDOM % 9000)); table=$((10 + RANDOM % 240))
    file=$(shuf -n1 -e 20 60)-pbr-net-$ticket.conf
    low="$(int2ip "$base")/$bits"; high=""
    printf '# NET-%s: the backup network leaves through its own table (%s)\nroute add unreachable default table %s\nrule add to %s table %s priority %s\n' \
      "$ticket" "$day" "$table" "$low" "$table" "$((100 + RANDOM % 900))" >"$dir/$file"
    keep_routes+=("unreachable 0.0.0.0/0 - $table")
    ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac

service billing-api start >/dev/null
service static-routes start >/dev/null
printf 'cd /etc/network/routes.d\nls -l\nservice static-routes reload\nexit\n' >/root/.bash_history

# Make sure the fault is what it should be: replies to the front ends' network go nowhere.
probe=$(int2ip $((base + size - 3)))
if ip route get "$probe" 2>/dev/null | grep -q "dev eth0" && [ "$fault" != dead_gateway ]; then
  echo "setup: fault $fault left $probe routed" >&2; exit 1
fi
# The documentation ranges of 10-datacenter.conf stay unreachable too.
for doc in 192.0.2.0/24 198.51.100.0/24 203.0.113.0/24; do keep_routes+=("unreachable $doc - main"); done
keep=$(printf '%s\n' "${keep_routes[@]}" | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().splitlines()))')
files=$(ls "$dir"/*.conf | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().split()))')
net=$(python3 -c 'import ipaddress, sys; print(ipaddress.ip_interface(sys.argv[1]).network)' "$cidr")
printf '{"fault":"%s","port":"%s","instance":"%s","invoice":"%s","file":"%s","files":%s,"net":"%s","address":"%s","keep":%s}\n' \
  "$fault" "$port" "$instance" "$invoice" "$dir/$file" "$files" "$net" "$self" "$keep"
