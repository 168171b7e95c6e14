#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment by the platform,
# fed on stdin: it is never stored in the container). inventory-api must answer the other
# services at http://inv01:8080; setup picks one way it does not (FAULTLINE_FAULT forces one, for
# tests), with random details: the address or port it listens on, the networks it admits, the
# process that took its port. The stock data and instance id are random per deployment. Prints
# the values the check needs as JSON on its last line.
set -euo pipefail
faults=(loopback_bind wrong_port port_taken allowlist)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
conf=/etc/inventory-api/api.conf
lib=/var/lib/inventory-api
logf=/var/log/inventory-api/api.log

service inventory-api stop >/dev/null 2>&1 || true

# Per-deployment data: instance id and a stock list; the check asks for one of its items.
instance=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
echo "$instance" >"$lib/instance-id"
read -r sku qty < <(python3 - "$lib/items.json" <<'PY'
import json, random, sys
names = ["trail boot", "climbing rope 60m", "headlamp", "carabiner", "belay device", "chalk bag",
         "rain shell", "down jacket", "trekking pole", "water filter", "bivy sack", "stove",
         "fuel canister", "map case", "gaiters", "helmet", "harness", "crampons", "ice axe", "first aid kit"]
skus = random.sample(range(10000, 99999), random.randint(24, 40))
items = [{"sku": f"INV-{s}", "name": random.choice(names), "qty": random.randint(0, 500), "warehouse": random.choice(["BER1", "HAM2", "MUC1"])} for s in skus]
json.dump(items, open(sys.argv[1], "w"), indent=1)
pick = random.choice(items)
print(pick["sku"], pick["qty"])
PY
)
chown inventory:inventory "$lib/items.json" "$lib/instance-id"
chmod 0640 "$lib/items.json" "$lib/instance-id"

# The network the clients are on (the deployment's): order-svc and ship-svc are two neighbours.
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
self=${cidr%/*}; bits=${cidr#*/}
ip2int() { local IFS=.; set -- $1; echo $((($1 << 24) + ($2 << 16) + ($3 << 8) + $4)); }
int2ip() { echo "$(($1 >> 24 & 255)).$(($1 >> 16 & 255)).$(($1 >> 8 & 255)).$(($1 & 255))"; }
base=$(($(ip2int "$self") & ~((1 << (32 - bits)) - 1) & 0xffffffff))
pick_client() { local c; while :; do c=$(int2ip $((base + 2 + RANDOM % ((1 << (32 - bits)) - 3)))); [ "$c" != "$self" ] && { echo "$c"; return; }; done; }
order_ip=$(pick_client); ship_ip=$(pick_client)

# Yesterday's normal life, in the service's log.
ts() { date -d "@$1" +%Y-%m-%dT%H:%M:%S%z; }
now=$(date +%s); t=$((now - 3 * 3600 - RANDOM % 3600))
{
  echo "$(ts $t) INFO inventory-api 1.4.2 starting: $(python3 -c 'import json;print(len(json.load(open("/var/lib/inventory-api/items.json"))))') items, instance $instance"
  echo "$(ts $t) INFO listening on 0.0.0.0:8080"
  mapfile -t some < <(python3 -c 'import json;[print(i["sku"]) for i in json.load(open("/var/lib/inventory-api/items.json"))]' | shuf -n 8)
  while [ "$t" -lt $((now - 120)) ]; do
    t=$((t + 20 + RANDOM % 90))
    case $((RANDOM % 3)) in
      0) echo "$(ts $t) INFO $ship_ip \"GET /health HTTP/1.1\" 200 -" ;;
      *) echo "$(ts $t) INFO $order_ip \"GET /v1/items/${some[RANDOM % ${#some[@]}]} HTTP/1.1\" 200 -" ;;
    esac
  done
} >"$logf"
chown inventory:inventory "$logf"

# The change, then the restart that followed it.
case "$fault" in
  loopback_bind)
    addr=$(shuf -n1 -e 127.0.0.1 localhost)
    sed -i "s/^bind = .*/bind = $addr/" "$conf"
    ;;
  wrong_port)
    port=$(shuf -n1 -e 8000 8008 8081 8088 8090 8180 9080 18080)
    sed -i "s/^port = .*/port = $port/" "$conf"
    ;;
  allowlist)
    nets=$(shuf -n1 -e "10.$((16 + RANDOM % 200)).0.0/16, 127.0.0.0/8" "192.168.$((RANDOM % 250)).0/24, 127.0.0.1/32" "10.$((16 + RANDOM % 200)).$((RANDOM % 250)).0/24, 10.$((16 + RANDOM % 200)).0.0/16")
    sed -i "s|^allowed_networks =.*|allowed_networks = $nets|" "$conf"
    ;;
  port_taken)
    # Someone's debugging session from last night is still running and holds port 8080.
    if [ $((RANDOM % 2)) = 0 ]; then
      mkdir -p /home/deploy/heapdump
      head -c $((200 + RANDOM % 300))K /dev/urandom >"/home/deploy/heapdump/inventory-api-$(date -d '-1 day' +%Y%m%d).hprof"
      printf 'cd heapdump\nls -lh\npython3 -m http.server 8080 &\n# dump is at http://inv01:8080/ for the vendor, kill it when they have it\nexit\n' >/home/deploy/.bash_history
      squat=(/usr/bin/python3 -m http.server 8080); dir=/home/deploy/heapdump
    else
      printf 'ss -ltn\nnc -dlk 8080\n# is the LB health check even reaching us? leave it listening overnight\nexit\n' >/home/deploy/.bash_history
      squat=(/usr/bin/nc -dlk 8080); dir=/home/deploy
    fi
    chown -R deploy:deploy /home/deploy
    start-stop-daemon --start --quiet --background --chuid deploy:deploy --chdir "$dir" --exec "${squat[0]}" -- "${squat[@]:1}"
    for _ in $(seq 30); do ss -Hltn 'sport = :8080' | grep -q . && break; sleep 0.1; done
    ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
service inventory-api start >/dev/null 2>&1 || true
# What the maintenance looked like from root's shell.
case "$fault" in
  port_taken) printf 'apt list --upgradable\nservice inventory-api restart\ncurl -s --max-time 3 localhost:8080/health\nexit\n' ;;
  *) printf 'cd /etc/inventory-api\nvi api.conf\nservice inventory-api restart\ncurl -s localhost:8080/health\nexit\n' ;;
esac >/root/.bash_history

# Make sure the fault is what it should be: nothing serves inventory-api on <eth0>:8080.
if [ "$fault" != allowlist ] && curl -s --max-time 2 "http://$self:8080/health" | grep -q "$instance"; then
  echo "setup: fault $fault left the API reachable" >&2; exit 1
fi
if [ "$fault" = allowlist ]; then
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://$self:8080/health" || true)
  [ "$code" = 403 ] || { echo "setup: fault allowlist answered HTTP $code instead of 403" >&2; exit 1; }
  # The clients keep trying and are turned away.
  n=$((6 + RANDOM % 6)); t=$(($(date +%s) - 3 * n))
  for i in $(seq "$n"); do
    echo "$(ts $((t + 3 * i))) WARNING denied $order_ip /v1/items/${some[RANDOM % ${#some[@]}]}: client not in allowed_networks ($nets)"
    if [ $((i % 3)) = 0 ]; then echo "$(ts $((t + 3 * i))) WARNING denied $ship_ip /health: client not in allowed_networks ($nets)"; fi
  done >>"$logf"
fi
net=$(python3 -c 'import ipaddress, sys; print(ipaddress.ip_interface(sys.argv[1]).network)' "$cidr")
printf '{"fault":"%s","instance":"%s","sku":"%s","qty":"%s","net":"%s"}\n' "$fault" "$instance" "$sku" "$qty" "$net"
