#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment by the platform,
# fed on stdin: never stored in the container). The status page application's port and data are
# random per deployment; one of several ways nginx cannot reach it is picked (FAULTLINE_FAULT
# forces one, for tests). Customers then get 502 Bad Gateway or nothing at all. Prints the values
# the check needs as JSON on its last line.
set -euo pipefail
faults=(port_moved upstream_typo bound_to_hostname https_upstream)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
conf=/etc/statuspage/statuspage.conf
site=/etc/nginx/sites-available/statuspage
lib=/var/lib/statuspage

# The port the application and nginx agreed on before the change.
port=$((8100 + RANDOM % 1800))
sed -i "s/^port = .*/port = $port/" "$conf"
sed -i "s|proxy_pass http://127.0.0.1:[0-9]*;|proxy_pass http://127.0.0.1:$port;|" "$site"

instance=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
echo "$instance" >"$lib/instance-id"
python3 - "$lib/components.json" <<'PY'
import json, random, sys
names = ["Website", "API", "Checkout", "Search", "Login", "Webhooks", "Email delivery", "CDN", "Reports", "Mobile push"]
json.dump([{"name": n, "status": "operational"} for n in random.sample(names, random.randint(4, 7))], open(sys.argv[1], "w"), indent=1)
PY
chown status:status "$lib/instance-id" "$lib/components.json"
chmod 0640 "$lib/instance-id" "$lib/components.json"

case "$fault" in
  port_moved)
    # The 2.3 upgrade moved the application to another port; nginx was not told.
    new=$port; while [ "$new" = "$port" ]; do new=$((9100 + RANDOM % 800)); done
    sed -i "s/^port = .*/port = $new/" "$conf" ;;
  upstream_typo)
    # A hand edit of the site: the port's digits swapped (or off by one if they read the same).
    bad=$(echo "$port" | sed 's/\(.\)\(.\)$/\2\1/')
    [ "$bad" = "$port" ] && bad=$((port + 1))
    sed -i "s|proxy_pass http://127.0.0.1:$port;|proxy_pass http://127.0.0.1:$bad;|" "$site" ;;
  bound_to_hostname)
    # "Make it reachable": the application now listens on the host's network address only.
    sed -i "s/^bind = .*/bind = $(hostname)/" "$conf" ;;
  https_upstream)
    # "Everything internal goes over TLS now": but the application speaks plain HTTP.
    sed -i "s|proxy_pass http://127.0.0.1:$port;|proxy_pass https://127.0.0.1:$port;|" "$site" ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac

# The restarts after the change, and the customers who came in since.
service statuspage start >/dev/null 2>&1 || true
service nginx start >/dev/null 2>&1 || true
for _ in 1 2 3; do curl -s -o /dev/null --max-time 4 http://127.0.0.1/ || true; done
printf 'cd /etc/nginx/sites-available\nvi statuspage\nservice nginx restart\ncurl -sI localhost\nexit\n' >/root/.bash_history

# Make sure the fault is what it should be: customers do not get the page.
self=$(hostname -i | awk '{print $1}')
if curl -s --max-time 3 "http://$self/" | grep -q "$instance"; then
  echo "setup: fault $fault left the page reachable" >&2; exit 1
fi
printf '{"fault":"%s","instance":"%s"}\n' "$fault" "$instance"
