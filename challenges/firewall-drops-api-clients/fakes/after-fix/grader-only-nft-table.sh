#!/bin/bash
# Fake (grader-only class), after the reference fix: drop one front end of the network again from
# a table of its own made with nft (family inet, a base chain hooked before iptables' own):
# iptables-save never shows it, the boot copy never loads it.
# The address cut off is the network's first, which the grader never calls from: only reading
# every address of the network, as the kernel holds it, finds it (and the proof is not left to chance).
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
first=$(python3 -c 'import ipaddress, sys; print(next(ipaddress.ip_network(sys.argv[1], strict=False).hosts()))' "$cidr")
port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' /etc/orders-api/orders-api.conf)
nft add table inet shopguard
nft add chain inet shopguard early '{ type filter hook input priority -10; policy accept; }'
nft add rule inet shopguard early ip saddr "$first" tcp dport "$port" drop
nft list table inet shopguard
