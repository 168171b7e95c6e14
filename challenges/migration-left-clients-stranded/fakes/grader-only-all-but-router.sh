#!/bin/bash
# Fake (grader-only class): repair the service and the routing, and let through the firewall every
# address a grader can call from (the network's free addresses) and nothing more: the network's
# first address, its router, stays refused, live and in the file the next boot loads.
fix_service
router=$(python3 -c 'import ipaddress, sys; print(next(ipaddress.ip_interface(sys.argv[1]).network.hosts()))' "$cidr")
sed -i "s|^-A INPUT -s [0-9./]* \(-p tcp -m tcp --dport $port -m comment --comment \"wms-api\" -j ACCEPT\)|-A INPUT -s $router/32 -p tcp -m tcp --dport $port -j REJECT --reject-with tcp-reset\n-A INPUT \1|" "$rules"
service firewall restart
# The routing: the lines that catch the network out of their files, and out of the live tables.
drop_routes
