#!/bin/bash
# Grading: runs in the grader beside billing01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of billing01's. The player holds NET_ADMIN (routes, packet
# filters), so the check also refuses any listener it does not expect (fl quiet-net). It asks:
#   what the clients see: billing-api answers at http://billing01:<port> from another host of the
#     network (the grader is one of the front ends' neighbours), with this deployment's data;
#   who answers: the port is held by the system's billing-api program, as its own user;
#   what was repaired: no file of /etc/network/routes.d routes the front ends' network away any
#     more (the next boot applies them), and nothing else of them was thrown away;
#   the written answer names the file the bad routing came from.
# Environment: FL_TARGET, FL_PORT, FL_INSTANCE, FL_INVOICE, FL_FILE, FL_BAD (prefixes that must
# not be routed away), FL_KEEP (digest of what must stay of the culprit file, or empty). Exit 0 = fixed.
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
  7) refuse "Connections to $base from another host of billing01's network are refused." ;;
  28) refuse "Connections to $base from another host of billing01's network time out: no answer ever comes back." ;;
  *) refuse "Calling $base/health from another host failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")" ;;
esac
grep -qi '^server: billing-api/' "$tmp/headers" || refuse "Something answers on port $FL_PORT of $FL_TARGET, but it is not billing-api."
[ "$code" = 200 ] && grep -q "\"instance\": \"$FL_INSTANCE\"" "$tmp/body" || refuse "Port $FL_PORT answers HTTP $code, but not with this host's billing-api."
get "/v1/invoices/$FL_INVOICE"
[ "$rc" = 0 ] && [ "$code" = 200 ] && grep -q "\"$FL_INVOICE\"" "$tmp/body" || refuse "/health answers, but the invoice lookups of $base do not return this host's invoices."

quiet=$(fl quiet-net "$FL_PORT") || refuse "$quiet"
pids=$(fl service "$FL_PORT" /usr/bin/python3.11 \
  --argv '["/usr/bin/python3","-I","-S","/usr/lib/billing-api/billing_api.py","/etc/billing-api/billing-api.conf"]' \
  --config /etc/billing-api/billing-api.conf) || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = billing ] || refuse "billing-api runs as $user; it must run as its own user, billing (use its service script)."
done

# What the next boot applies: no file routes the front ends' network away, the rest is kept.
dir=/etc/network/routes.d
norm() { sed 's/#.*//; s/[[:space:]]\+/ /g; s/^ //; s/ $//' | grep .; }
files=$(fl ls "$dir") || refuse "$files"
for f in $files; do
  text=$(fl read "$dir/$f") || refuse "$dir/$f cannot be read: $text"
  for prefix in $FL_BAD; do
    if norm <<<"$text" | grep -qwF -- "$prefix"; then
      # The file is not named: which file it is, is the written answer.
      refuse "The API answers now, but a file of $dir still routes the front ends' network away: the next boot or \`service static-routes start\` would cut them off again."
    fi
  done
done
same=$(fl pristine "$dir/10-datacenter.conf") || refuse "$same"
if [ -n "$FL_KEEP" ]; then
  text=$(fl read "$dir/$FL_FILE" 2>/dev/null) || refuse "A file of $dir that held other teams' routes is gone: only the entries that catch the front ends' network had to go, the rest of it is still needed."
  bads=(); for prefix in $FL_BAD; do bads+=(-e "$prefix"); done
  [ "$(norm <<<"$text" | grep -vwF "${bads[@]}" | sort | sha256sum | cut -d' ' -f1)" = "$FL_KEEP" ] ||
    refuse "A file of $dir lost more than the entries that catch the front ends' network: the rest of it is still needed."
fi
if ! answer_mentions "$FL_FILE" && ! answer_mentions "$dir/$FL_FILE"; then
  refuse "The front ends reach billing-api again. Your answer does not name the file the bad routing came from: which was it?"
fi
echo "The front ends reach billing-api at $base again, and the routing that cut them off is gone for good."
