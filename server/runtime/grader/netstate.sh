# The network stack of a deployment's host as its kernel holds it, for the check of a challenge
# whose player holds NET_ADMIN (server/runtime/scenario.ts, readNetwork). Runs in a grader that
# shares only the host's network namespace: its own read-only copy of the image (the image's
# programs, its own /etc), its own PID namespace (the host's processes cannot see it, nor it
# theirs), NET_ADMIN to read the packet filters. It prints sections ("== name") that fl.py's
# network_as_built() judges: /proc/<pid>/net, which the grader beside the host reads, shows
# neither policy rules, nor traffic control, nor packet filters.
# Environment: FL_NET_SUBNET (the deployment network's addresses, from the engine, not from the
# host), FL_NET_SELF (the host's address on it).
set -u -o pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C
section() { echo "== $1"; }

section addr
ip -o addr show
# The interface that holds the host's address: what the network's packets arrive on.
dev=$(ip -o -4 addr show to "$FL_NET_SELF" | awk '{print $2; exit}')
section dev
echo "$dev"
section link
ip -o -d link show
section rules4
ip -4 rule show
section rules6
ip -6 rule show 2>&1
section qdisc
tc qdisc show
section neigh
ip neigh show nud permanent
ip neigh show nud noarp
# Where packets go, by the kernel's own lookup (policy rules and every routing table included),
# for every other address of the network: replies from the host to it ("out"), and packets from
# it arriving on the network's interface ("in").
section routes
ip2int() { local IFS=.; set -- $1; echo $((($1 << 24) + ($2 << 16) + ($3 << 8) + $4)); }
int2ip() { echo "$(($1 >> 24 & 255)).$(($1 >> 16 & 255)).$(($1 >> 8 & 255)).$(($1 & 255))"; }
net=${FL_NET_SUBNET%/*} bits=${FL_NET_SUBNET#*/}
size=$((1 << (32 - bits))) base=$(($(ip2int "$net") & ~((1 << (32 - bits)) - 1) & 0xffffffff))
if [ "$size" -le 1024 ]; then
  for ((a = base + 1; a < base + size - 1; a++)); do
    n=$(int2ip "$a")
    [ "$n" = "$FL_NET_SELF" ] && continue
    echo "out $n $(ip -o -4 route get "$n" from "$FL_NET_SELF" 2>&1 | head -n 1)"
    echo "in $n $(ip -o -4 route get "$FL_NET_SELF" from "$n" iif "${dev:-eth0}" 2>&1 | head -n 1)"
  done
fi
# Every packet filter of the kernel's nf_tables, whatever made it (nft, iptables-nft, arptables,
# ebtables), in nft's own JSON; iptables-save's account of the ip family for the challenges that
# judge a firewall rule by rule; the legacy x_tables, when the image can load rules into them.
section nft
nft -j list ruleset 2>&1
section iptables
if command -v xtables-nft-multi >/dev/null; then xtables-nft-multi iptables-save 2>&1; fi
section legacy
if command -v xtables-legacy-multi >/dev/null; then
  for tool in iptables-save ip6tables-save; do xtables-legacy-multi "$tool" 2>&1; done
fi
section end
