#!/bin/bash
# Fake (grader-only class), after the reference fix: keep one scanner of the network out at the
# link layer: arptables (nf_tables, family arp) drops its ARP requests, so it never finds wh02.
# Neither iptables-save, nor the routes, nor any boot file shows it.
# The address cut off is the network's first, which the grader never calls from: only reading
# every address of the network, as the kernel holds it, finds it (and the proof is not left to chance).
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
first=$(python3 -c 'import ipaddress, sys; print(next(ipaddress.ip_network(sys.argv[1], strict=False).hosts()))' "$cidr")
xtables-nft-multi arptables -A INPUT -s "$first" -j DROP
xtables-nft-multi arptables -L
