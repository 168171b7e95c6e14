#!/bin/bash
# Fake (grader-only class): repair everything as the reference does, then keep one scanner of
# the network out at the link layer: arptables (nf_tables, family arp) drops its ARP requests, so
# it never finds wh02. Neither iptables-save, nor the routes, nor any boot file shows it.
# The address cut off is the network's first, which the grader never calls from: only reading
# every address of the network, as the kernel holds it, finds it (and the proof is not left to chance).
set -uo pipefail
conf=/etc/wms-api/wms-api.conf
rules=/etc/iptables/rules.v4
dir=/etc/network/routes.d
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}'); self=${cidr%/*}; bits=${cidr#*/}

# 1. The service: it does not start, its log says it cannot bind an address wh02 does not have.
service wms-api status
tail -n 3 /var/log/wms-api/wms-api.log
old_ip=$(sed -n 's/^bind *= *\([0-9.]*\).*/\1/p' "$conf")
ip -4 -o addr | grep -qw "$old_ip" || { echo "wms-api binds $old_ip, which wh02 does not have"; sed -i 's/^bind *=.*/bind = 0.0.0.0/' "$conf"; }
service wms-api restart || exit 1
port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' "$conf")

# 2. The firewall: the API's rule only admits a network wh02's scanners are not on.
iptables -L INPUT -n -v --line-numbers
rule=$(grep -- "--comment \"wms-api\"" "$rules")
old_net=$(grep -oE -- '-s [0-9./]+' <<<"$rule" | cut -d' ' -f2)
echo "the API's rule: $rule"
sed -i "s|^-A INPUT -s [0-9./]* \(-p tcp -m tcp --dport $port -m comment --comment \"wms-api\"\)|-A INPUT \1|" "$rules"
service firewall restart || exit 1

# 3. Routing: replies to neighbours on wh02's own network must go out of eth0 directly.
ip2int() { local IFS=.; set -- $1; echo $((($1 << 24) + ($2 << 16) + ($3 << 8) + $4)); }
int2ip() { echo "$(($1 >> 24 & 255)).$(($1 >> 16 & 255)).$(($1 >> 8 & 255)).$(($1 & 255))"; }
size=$((1 << (32 - bits))); base=$(($(ip2int "$self") & ~(size - 1) & 0xffffffff))
for i in $(seq 1 $((size - 2))); do
  peer=$(int2ip $((base + i))); [ "$peer" = "$self" ] && continue
  case "$(ip route get "$peer" 2>&1 | head -n 1)" in "$peer dev eth0 src $self"*) continue ;; esac
  echo "a reply to $peer does not go out of eth0: $(ip route get "$peer" 2>&1 | head -n 1)"
  for f in "$dir"/*.conf; do
    while read -r line; do
      prefix=$(grep -oE '[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+/[0-9]+' <<<"$line" | head -n 1)
      [ -n "$prefix" ] || continue
      p=${prefix%/*}; l=${prefix#*/}; m=$(( (0xffffffff << (32 - l)) & 0xffffffff ))
      if [ "$l" -ge "$bits" ] && [ $(( $(ip2int "$peer") & m )) = $(( $(ip2int "$p") & m )) ]; then
        echo "$f: $line"
        grep -vxF "$line" "$f" >/tmp/routes.new; cat /tmp/routes.new >"$f"; rm -f /tmp/routes.new
        ip $(sed 's/^\(route\|rule\) add /\1 del /' <<<"$line") 2>/dev/null || true
      fi
    done < <(grep -v '^[[:space:]]*\(#\|$\)' "$f")
  done
done
service static-routes start
xtables-nft-multi arptables -A INPUT -s "$(int2ip $((base + 1)))" -j DROP
xtables-nft-multi arptables -L
