#!/bin/bash
# Grading: runs in the grader beside inv01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of inv01's. It calls inventory-api the way order-svc does, from
# another host of the internal network, then makes sure who answered: port 8080 is held only by
# the system's inventory-api program, started the usual way as its own user, from the
# configuration on disk. Environment: FL_TARGET (the deployment's host name), FL_INSTANCE, FL_SKU
# and FL_QTY chosen by setup.sh. Exit 0 = fixed; stdout = feedback.
base="http://${FL_TARGET}:8080"
me=$(hostname -i 2>/dev/null | awk '{print $1}')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# get <path>: sets code, server, rc; the body is in $tmp/body.
get() {
  : >"$tmp/headers"; : >"$tmp/body"
  code=$(curl -sS --max-time 5 -D "$tmp/headers" -o "$tmp/body" -w '%{http_code}' "$base$1" 2>"$tmp/err")
  rc=$?
  server=$(awk 'tolower($1) == "server:" {sub(/\r$/, ""); $1 = ""; sub(/^ /, ""); print; exit}' "$tmp/headers")
}
field() { python3 -I -S -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], ""))' "$tmp/body" "$1" 2>/dev/null; }

get /health
case $rc in
  0) ;;
  7)
    echo "Connection refused at $base from $me (another host of the internal network):"
    echo "nothing accepts connections on port 8080 of ${FL_TARGET}'s network address. Is inventory-api"
    echo "running, and which address and port does it really listen on?"
    exit 1 ;;
  28|52|56)
    echo "Port 8080 of $FL_TARGET accepts the connection from $me, but no HTTP answer came back"
    echo "($(sed 's/^curl: ([0-9]*) //' "$tmp/err")). Whatever holds that port is not inventory-api."
    exit 1 ;;
  6)
    echo "$FL_TARGET does not resolve from the grader: $(cat "$tmp/err")"
    exit 1 ;;
  *)
    echo "Calling $base/health from $me failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")"
    exit 1 ;;
esac
if [[ "$server" != inventory-api/* ]]; then
  echo "Something answers HTTP $code on port 8080 of $FL_TARGET, but it is not inventory-api"
  echo "(Server: ${server:-none}). The clients get the wrong service."
  exit 1
fi
if [ "$code" = 403 ]; then
  echo "inventory-api answers, but refuses the client $me with HTTP 403:"
  echo "  $(head -c 300 "$tmp/body")"
  echo "order-svc and ship-svc call it from this same internal network."
  exit 1
fi
if [ "$code" != 200 ] || [ "$(field status)" != ok ]; then
  echo "inventory-api answers $base/health with HTTP $code instead of a healthy 200."
  exit 1
fi
instance=$(field instance)
if [ "$instance" != "$FL_INSTANCE" ]; then
  echo "Something answers as inventory-api on port 8080, but not with this host's instance and data."
  exit 1
fi
get "/v1/items/$FL_SKU"
qty=$(field qty)
if [ "$rc" != 0 ] || [ "$code" != 200 ] || [ "$qty" != "$FL_QTY" ]; then
  echo "/health is fine, but the stock lookup $base/v1/items/$FL_SKU did not return the item's"
  echo "stock level from /var/lib/inventory-api (HTTP ${code:-none})."
  exit 1
fi

# Who answered: the service's own program, and nothing else on its port.
pids=$(fl service 8080 /usr/bin/python3.11 \
  --argv '["/usr/bin/python3","-I","-S","/usr/lib/inventory-api/inventory_api.py","/etc/inventory-api/api.conf"]' \
  --config /etc/inventory-api/api.conf) || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = inventory ] || refuse "inventory-api runs as $user; it must run as its own unprivileged user, inventory (use its service script)."
done
echo "inventory-api answers at $base from another host of the internal network:"
echo "/health is ok and $FL_SKU has $FL_QTY in stock."
