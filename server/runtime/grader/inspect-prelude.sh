# Put before a challenge's inspect.sh (server/runtime/scenario.ts). It runs in a copy of the
# deployment's disk before that copy boots: no process of the player's runs there, so nothing can
# change the files while they are read. inspect.sh asks the image's own programs what they make
# of the player's configuration (`nginx -t`, `sudo -l -U`, `sshd -T`, `logrotate -d`, `ldconfig`
# into a scratch cache...): its output is what check.sh gets as FL_INSPECTION in the boot phase.
# The platform started this bash through the loader without the player's loader cache and checked
# that /etc/ld.so.preload is empty; `trusted` (and the wrappers below) do the same for every
# program run here, so the player's /etc/ld.so.cache and /usr/local never pick its libraries.
set -u -o pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8
umask 077
fl_loader=/lib64/ld-linux-x86-64.so.2
# trusted PROGRAM ARGS...: the image's PROGRAM (looked up in the read-only directories only), its
# libraries from the read-only directories only. Statically linked programs run as they are.
trusted() {
  local path
  path=$(type -P "$1") || { echo "inspect: no program $1" >&2; return 127; }
  shift
  if "$fl_loader" --verify "$path" >/dev/null 2>&1; then
    "$fl_loader" --inhibit-cache "$path" "$@"
  else
    "$path" "$@"
  fi
}
for fl_tool in awk cat cut grep head ls sed sort stat tail tr wc; do
  eval "$fl_tool() { trusted $fl_tool \"\$@\"; }"
done
unset fl_tool
# firewall_as_loaded: what the boot's firewall will load: /etc/iptables/rules.v4 loaded by the
# image's own iptables-restore the way `service firewall start` does at boot, and iptables-save's
# account of the rules ("firewall-load: ok" first), or "firewall-load: failed" and why.
firewall_as_loaded() {
  local rules=/etc/iptables/rules.v4 err
  if err=$(trusted xtables-nft-multi iptables-restore --test <"$rules" 2>&1) && err=$(trusted xtables-nft-multi iptables-restore <"$rules" 2>&1); then
    echo "firewall-load: ok"
    trusted xtables-nft-multi iptables-save
  else
    echo "firewall-load: failed"
    head -n 3 <<<"${err:-$rules cannot be read}"
  fi
}
# routing_as_booted: what the routing the boot applies does with replies to the host's own network.
# The copy is on a network of its own, so the host's address as documented in
# /etc/network/interfaces is put back on eth0 (the check compares it with the deployment's own: a
# changed file cannot steer this). Then every /etc/network/routes.d/*.conf is applied exactly as
# `service static-routes start` does at boot, with the image's own ip, and the kernel is asked how
# it would send a reply to every other address of that network. The routes and rules as the kernel
# holds them follow. Ends the inspection when there is no address to judge from.
routing_as_booted() {
  local dir=/etc/network/routes.d addr f self peer
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
}
# ---- inspect.sh
