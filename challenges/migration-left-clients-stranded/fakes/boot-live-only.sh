#!/bin/bash
# Fake (boot class): repair the service's configuration, but let the scanners through the
# firewall and the routing live only (an accept rule at the top, the routes stopped): the copied
# firewall rules and routes file stay for the next boot.
fix_service
iptables -I INPUT 1 -p tcp --dport "$port" -j ACCEPT
service static-routes stop
