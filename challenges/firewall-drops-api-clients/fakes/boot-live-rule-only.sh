#!/bin/bash
# Fake (boot class): let the clients in with a rule added by hand at the top of the live rule set, and leave
# the faulty rules file for the next boot.
port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' /etc/orders-api/orders-api.conf)
iptables -I INPUT 1 -p tcp --dport "$port" -j ACCEPT
