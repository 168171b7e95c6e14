#!/bin/bash
# Fake (boot class): repair the service's configuration, but let the scanners through the
# firewall and the routing live only (an accept rule at the top, the routes stopped): the copied
# firewall rules and routes file stay for the next boot.
conf=/etc/wms-api/wms-api.conf
rules=/etc/iptables/rules.v4
sed -i "s/^bind *=.*/bind = 0.0.0.0/" "$conf"
service wms-api restart
port=$(sed -n "s/^port *= *\([0-9]*\).*/\1/p" "$conf")
metrics=$(sed -n "s/^metrics_port *= *\([0-9]*\).*/\1/p" "$conf")
cidr=$(ip -4 -o addr show scope global | awk "{print \$4; exit}")
iptables -I INPUT 1 -p tcp --dport "$port" -j ACCEPT
service static-routes stop
