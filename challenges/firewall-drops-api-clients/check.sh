#!/bin/bash
# Grading: runs in the grader beside orders01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of orders01's. The player holds NET_ADMIN (packet filters), so
# the check also refuses any listener it does not expect (fl quiet-net): a rule could send the
# clients to a stand-in. It asks:
#   what the clients see: orders-api answers at http://orders01:<port> from another host, with
#     this deployment's data; the metrics port still does NOT answer other hosts (the firewall
#     keeps protecting it: turning the firewall off is not a fix);
#   who answers: both ports are held by the system's orders-api program, started the usual way as
#     its own user, on every address; nothing else listens;
#   what was repaired: the rules file says what the firewall should (it is what the next boot
#     loads), and orders-api's configuration is its own.
# Environment: FL_TARGET, FL_PORT, FL_METRICS, FL_INSTANCE, FL_ORDER (setup.sh). Exit 0 = fixed.
base="http://${FL_TARGET}:${FL_PORT}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
get() {
  code=$(curl -sS --connect-timeout 3 --max-time 5 -D "$tmp/headers" -o "$tmp/body" -w '%{http_code}' "$base$1" 2>"$tmp/err")
  rc=$?
}
get /health
case $rc in
  0) ;;
  7) refuse "The shop's front ends get \"connection refused\" at $base from another host of the network." ;;
  28) refuse "Connections to $base from another host of the network time out: nothing comes back." ;;
  *) refuse "Calling $base/health from another host failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")" ;;
esac
grep -qi '^server: orders-api/' "$tmp/headers" || refuse "Something answers on port $FL_PORT of $FL_TARGET, but it is not orders-api."
[ "$code" = 200 ] && grep -q "\"instance\": \"$FL_INSTANCE\"" "$tmp/body" || refuse "Port $FL_PORT answers HTTP $code, but not with this host's orders-api."
get "/v1/orders/$FL_ORDER"
[ "$rc" = 0 ] && [ "$code" = 200 ] && grep -q "\"$FL_ORDER\"" "$tmp/body" || refuse "/health answers, but the order lookups of $base do not return this host's orders."

# Who answers, and nothing else listening (a packet filter rule could send clients elsewhere).
quiet=$(fl quiet-net "$FL_PORT" "$FL_METRICS") || refuse "$quiet"
argv='["/usr/bin/python3","-I","-S","/usr/lib/orders-api/orders_api.py","/etc/orders-api/orders-api.conf"]'
pids=$(fl service "$FL_PORT" /usr/bin/python3.11 --argv "$argv" --config /etc/orders-api/orders-api.conf) || refuse "$pids"
mpids=$(fl service "$FL_METRICS" /usr/bin/python3.11 --argv "$argv" --config /etc/orders-api/orders-api.conf) || refuse "$mpids"
for pid in $pids $mpids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = orders ] || refuse "orders-api runs as $user; it must run as its own user, orders (use its service script)."
done
while read -r addr port _; do
  [ "$addr" = 0.0.0.0 ] || refuse "orders-api listens on $addr:$port, not on every address as configured."
done < <(fl listeners "$FL_PORT"; fl listeners "$FL_METRICS")

# The firewall still protects the metrics port from everyone but the monitoring server.
if curl -s -o /dev/null --connect-timeout 2 --max-time 3 "http://${FL_TARGET}:${FL_METRICS}/metrics"; then
  refuse "The API answers, but so does the metrics port $FL_METRICS, from a host that is not the monitoring server: the firewall must keep protecting it."
fi

# What was repaired: the rules the next boot loads, and the service's configuration.
norm() { sed 's/#.*//' | tr -s ' \t\n' ' ' | sed 's/^ //; s/ $//'; }
ports() { sed -e "s/--dport 8080 /--dport $FL_PORT /" -e "s/--dport 9100 /--dport $FL_METRICS /" -e "s/^port = .*/port = $FL_PORT/" -e "s/^metrics_port = .*/metrics_port = $FL_METRICS/"; }
rules=$(fl normalized /etc/iptables/rules.v4) || refuse "$rules"
[ "$rules" = "$(ports </etc/iptables/rules.v4 | norm)" ] ||
  refuse "The API answers now, but /etc/iptables/rules.v4 does not hold orders01's firewall rules with the fault repaired: the next \`service firewall restart\` or boot would load something else."
conf=$(fl normalized /etc/orders-api/orders-api.conf) || refuse "$conf"
[ "$conf" = "$(ports </etc/orders-api/orders-api.conf | norm)" ] || refuse "/etc/orders-api/orders-api.conf is not orders-api's own configuration any more: the fault was not there."
echo "The front ends reach orders-api at $base again, and the firewall still keeps its metrics port closed."
