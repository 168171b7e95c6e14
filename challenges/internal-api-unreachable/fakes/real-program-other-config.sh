#!/bin/bash
# Fake: the real inventory-api program, run by hand as root from a private copy of the
# configuration that works, with the service's own configuration left broken.
service inventory-api stop >/dev/null 2>&1 || true
pkill -f 'http.server 8080' || true; pkill -f 'nc -dlk 8080' || true
sleep 0.3
sed -e 's/^bind *=.*/bind = 0.0.0.0/' -e 's/^port *=.*/port = 8080/' -e 's/^allowed_networks *=.*/allowed_networks =/' \
  /etc/inventory-api/api.conf >/root/api.conf
setsid /usr/bin/python3 /usr/lib/inventory-api/inventory_api.py /root/api.conf </dev/null >/dev/null 2>&1 &
sleep 1
