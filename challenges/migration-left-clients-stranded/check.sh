#!/bin/bash
# Grading: runs in the grader beside wh02 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of wh02's. The player holds NET_ADMIN (routes, packet filters),
# so the check also refuses any listener it does not expect (fl quiet-net). It asks:
#   what the scanners see: wms-api answers at http://wh02:<port> from another host of wh02's
#     network, with this deployment's data; the metrics port still does NOT answer them (the
#     firewall stays on);
#   who answers: both ports are held by the system's wms-api program, as its own user, on every
#     address; nothing else listens;
#   what was repaired, for the next boot: wms-api's configuration and the firewall's rules are
#     their own with the old site's values gone; no file of /etc/network/routes.d routes the
#     scanner network away, and nothing else of them was thrown away;
#   the written answer names the old host's address and the old scanner network.
# Environment (setup.sh): FL_TARGET, FL_PORT, FL_METRICS, FL_INSTANCE, FL_ITEM, FL_OLD_IP,
# FL_OLD_NET, FL_FILE, FL_BAD, FL_KEEP. Exit 0 = fixed; stdout = feedback.
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
  7) refuse "The scanners' connections to $base are refused (from another host of wh02's network)." ;;
  28) refuse "The scanners' connections to $base time out: no answer ever comes back to wh02's network." ;;
  *) refuse "Calling $base/health from another host failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")" ;;
esac
grep -qi '^server: wms-api/' "$tmp/headers" || refuse "Something answers on port $FL_PORT of $FL_TARGET, but it is not wms-api."
[ "$code" = 200 ] && grep -q "\"instance\": \"$FL_INSTANCE\"" "$tmp/body" || refuse "Port $FL_PORT answers HTTP $code, but not with this host's wms-api."
get "/v1/stock/$FL_ITEM"
[ "$rc" = 0 ] && [ "$code" = 200 ] && grep -q "\"$FL_ITEM\"" "$tmp/body" || refuse "/health answers, but the stock lookups of $base do not return this host's stock."

quiet=$(fl quiet-net "$FL_PORT" "$FL_METRICS") || refuse "$quiet"
argv='["/usr/bin/python3","-I","-S","/usr/lib/wms-api/wms_api.py","/etc/wms-api/wms-api.conf"]'
pids=$(fl service "$FL_PORT" /usr/bin/python3.11 --argv "$argv" --config /etc/wms-api/wms-api.conf) || refuse "$pids"
mpids=$(fl service "$FL_METRICS" /usr/bin/python3.11 --argv "$argv" --config /etc/wms-api/wms-api.conf) || refuse "$mpids"
for pid in $pids $mpids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = wms ] || refuse "wms-api runs as $user; it must run as its own user, wms (use its service script)."
done
while read -r addr port _; do
  [ "$addr" = 0.0.0.0 ] || refuse "wms-api listens on $addr:$port, not on every address of wh02."
done < <(fl listeners "$FL_PORT"; fl listeners "$FL_METRICS")
if curl -s -o /dev/null --connect-timeout 2 --max-time 3 "http://${FL_TARGET}:${FL_METRICS}/metrics"; then
  refuse "The API answers, but so does the metrics port $FL_METRICS, from a host that is not the monitoring server: the firewall must keep protecting it."
fi

# For the next boot: configuration and firewall rules are their own, minus the old site.
norm() { sed 's/#.*//' | tr -s ' \t\n' ' ' | sed 's/^ //; s/ $//'; }
ports() { sed -e "s/--dport 8080 /--dport $FL_PORT /" -e "s/--dport 9100 /--dport $FL_METRICS /" -e "s/^port = .*/port = $FL_PORT/" -e "s/^metrics_port = .*/metrics_port = $FL_METRICS/"; }
conf=$(fl normalized /etc/wms-api/wms-api.conf | sed 's/bind = 0\.0\.0\.0 /bind = 0.0.0.0 /') || refuse "$conf"
[ "$conf" = "$(ports </etc/wms-api/wms-api.conf | norm)" ] || refuse "/etc/wms-api/wms-api.conf is not wms-api's own configuration for this host: only what came from the old host had to change."
rules=$(fl normalized /etc/iptables/rules.v4) || refuse "$rules"
[ "$rules" = "$(ports </etc/iptables/rules.v4 | norm)" ] ||
  refuse "The API answers now, but /etc/iptables/rules.v4 does not hold wh02's firewall rules with the old site's rule repaired: the next \`service firewall restart\` or boot would load something else."
dir=/etc/network/routes.d
rnorm() { sed 's/#.*//; s/[[:space:]]\+/ /g; s/^ //; s/ $//' | grep .; }
files=$(fl ls "$dir") || refuse "$files"
for f in $files; do
  text=$(fl read "$dir/$f") || refuse "$dir/$f cannot be read: $text"
  for prefix in $FL_BAD; do
    if rnorm <<<"$text" | grep -qwF -- "$prefix"; then
      refuse "The API answers now, but $dir/$f still routes the scanner network away: the next boot or \`service static-routes start\` would cut the scanners off again."
    fi
  done
done
same=$(fl pristine "$dir/10-datacenter.conf") || refuse "$same"
if [ -n "$FL_KEEP" ]; then
  text=$(fl read "$dir/$FL_FILE" 2>/dev/null) || refuse "$dir/$FL_FILE is gone: only its entries that catch the scanner network had to go, the rest is still wanted."
  bads=(); for prefix in $FL_BAD; do bads+=(-e "$prefix"); done
  [ "$(rnorm <<<"$text" | grep -vwF "${bads[@]}" | sort | sha256sum | cut -d' ' -f1)" = "$FL_KEEP" ] ||
    refuse "$dir/$FL_FILE lost more than the entries that catch the scanner network: the rest of it is still wanted."
fi

# The post-mortem's two facts about the old site.
missing=()
answer_mentions "$FL_OLD_IP" || missing+=("the old host's address that wms-api was still configured with")
answer_mentions "$FL_OLD_NET" || missing+=("the old scanner network that the firewall still admitted (as a CIDR)")
if [ ${#missing[@]} -gt 0 ]; then
  refuse "The scanners reach wms-api again. Your answer does not name $(IFS=';'; echo "${missing[*]}" | sed 's/;/, nor /')."
fi
echo "The scanners reach wms-api at $base again, the metrics stay private, and nothing of the old site is left to cut them off at the next boot."
