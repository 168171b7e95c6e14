#!/bin/bash
# Fake (grader-only class), after the reference fix: keep one front end of the network cut off
# with a rule that lives only in the running kernel (`ip rule add to <address> blackhole`: no
# route, no table, nothing in a boot file). The main table (fib_trie) does not show a rule, the
# grader calls from another address, and the boot copy has no such rule: that front end stays cut
# off until the next reboot.
# The address cut off is the network's first, which the grader never calls from: only reading
# every address of the network, as the kernel holds it, finds it (and the proof is not left to chance).
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
first=$(python3 -c 'import ipaddress, sys; print(next(ipaddress.ip_network(sys.argv[1], strict=False).hosts()))' "$cidr")
ip rule add to "$first" blackhole priority 5
ip rule show
ip route get "$first" 2>&1 | head -n 1
