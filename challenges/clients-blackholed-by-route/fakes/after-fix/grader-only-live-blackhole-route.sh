#!/bin/bash
# Fake (grader-only class), after the reference fix: keep one front end of the network cut off
# with a blackhole route added by hand to the live main table only (nothing in a boot file, so the
# boot copy is clean). The grader calls from one random address, never this one.
# The address cut off is the network's first, which the grader never calls from: only reading
# every address of the network, as the kernel holds it, finds it (and the proof is not left to chance).
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
first=$(python3 -c 'import ipaddress, sys; print(next(ipaddress.ip_network(sys.argv[1], strict=False).hosts()))' "$cidr")
ip route add blackhole "$first/32"
ip route get "$first" 2>&1 | head -n 1
