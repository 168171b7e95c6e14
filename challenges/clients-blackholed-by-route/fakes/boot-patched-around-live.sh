#!/bin/bash
# Fake (boot class): leave the bad routing in place and in its file, and patch around it live: a host route
# for every neighbour and a rule that looks them up in the main table before anything else.
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
ip2int() { local IFS=.; set -- $1; echo $((($1 << 24) + ($2 << 16) + ($3 << 8) + $4)); }
int2ip() { echo "$(($1 >> 24 & 255)).$(($1 >> 16 & 255)).$(($1 >> 8 & 255)).$(($1 & 255))"; }
bits=${cidr#*/}; size=$((1 << (32 - bits))); base=$(($(ip2int "${cidr%/*}") & ~(size - 1) & 0xffffffff))
for i in $(seq 1 $((size - 2))); do ip route replace "$(int2ip $((base + i)))/32" dev eth0 2>/dev/null; done
ip rule add to "$(int2ip "$base")/$bits" lookup main priority 5
