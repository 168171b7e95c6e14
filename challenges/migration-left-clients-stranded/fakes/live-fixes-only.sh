#!/bin/bash
# Fake: the service started by hand from a private copy of its configuration (bound to every
# address), and the firewall and routing fixed live only, leaving the old site's files in place.
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' /etc/wms-api/wms-api.conf)
sed 's/^bind *=.*/bind = 0.0.0.0/' /etc/wms-api/wms-api.conf >/tmp/wms-api.conf
chmod 0644 /tmp/wms-api.conf
start-stop-daemon --start --background --chuid wms:wms --exec /usr/bin/python3 --startas /usr/bin/python3 -- -I -S /usr/lib/wms-api/wms_api.py /tmp/wms-api.conf
iptables -I INPUT 1 -p tcp --dport "$port" -j ACCEPT
service static-routes stop
sleep 1
