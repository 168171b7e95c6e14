# Before the copy boots: what the routing its boot applies does with replies to the host's own
# network. The copy is on a network of its own, so the host's address as documented in
# /etc/network/interfaces is put back on eth0 (check.sh compares it with the deployment's own:
# a changed file cannot steer this). Then every /etc/network/routes.d/*.conf is applied exactly as
# `service static-routes start` (pristine, checked) does at boot, with the image's own ip, and the
# kernel is asked how it would send a reply to every other address of that network. The routes
# and rules as the kernel holds them follow, for the routing other teams need.
dir=/etc/network/routes.d
addr=$(awk '$1 == "address" {print $2; exit}' /etc/network/interfaces 2>/dev/null)
echo "address ${addr:-none}"
[ -n "$addr" ] || exit 0
trusted ip -4 addr add "$addr" dev eth0 2>/dev/null || { echo "address-refused"; exit 0; }
for f in "$dir"/*.conf; do
  [ -e "$f" ] || continue
  grep -v '^[[:space:]]*\(#\|$\)' "$f" | sed 's/^\(route\|rule\) add /\1 replace /; s/^rule replace /rule add /' | trusted ip -force -batch - >/dev/null 2>&1
  # What each line asks ip to change (its first word: route, rule, or anything else ip obeys).
  grep -v '^[[:space:]]*\(#\|$\)' "$f" | awk '{print "object " $1}'
done
self=${addr%/*}
for peer in $(trusted python3 -I -S -c 'import ipaddress, sys; i = ipaddress.ip_interface(sys.argv[1]); print(*[a for a in i.network.hosts() if a != i.ip])' "$addr"); do
  echo "get $peer $(trusted ip -4 -o route get "$peer" from "$self" 2>&1 | head -n 1)"
done
trusted ip -4 rule show | sed 's/^/rule /'
trusted ip -4 route show table all | sed 's/^/route /'
