#!/bin/bash
# Fake (grader-only class), after the reference fix: drop one front end of the network again with
# a rule added by hand to the live rule set only. The boot copy loads the repaired file; the live
# check calls from another address, and that front end stays locked out until the next reboot.
# The address cut off is the network's first, which the grader never calls from: only reading
# every address of the network, as the kernel holds it, finds it (and the proof is not left to chance).
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
first=$(python3 -c 'import ipaddress, sys; print(next(ipaddress.ip_network(sys.argv[1], strict=False).hosts()))' "$cidr")
port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' /etc/orders-api/orders-api.conf)
iptables -I INPUT 1 -s "$first/32" -p tcp --dport "$port" -j DROP
iptables -L INPUT -n --line-numbers | head -4
