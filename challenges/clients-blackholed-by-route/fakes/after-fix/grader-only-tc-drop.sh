#!/bin/bash
# Fake (grader-only class), after the reference fix: drop the packets of one front end of the
# network as they arrive, with traffic control on eth0 (a clsact qdisc and a u32 filter): no
# route, no rule, no packet filter, nothing in a boot file.
# The address cut off is the network's first, which the grader never calls from: only reading
# every address of the network, as the kernel holds it, finds it (and the proof is not left to chance).
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
first=$(python3 -c 'import ipaddress, sys; print(next(ipaddress.ip_network(sys.argv[1], strict=False).hosts()))' "$cidr")
tc qdisc add dev eth0 clsact
tc filter add dev eth0 ingress protocol ip u32 match ip src "$first/32" action drop
tc filter show dev eth0 ingress
