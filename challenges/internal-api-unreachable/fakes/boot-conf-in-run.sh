#!/bin/bash
# Fake (boot class): leave the broken configuration where it is, put a repaired copy in /run and
# point the configuration's name at it; free port 8080 and restart. The clients get through now;
# /run is empty after a reboot.
conf=/etc/inventory-api/api.conf
sed -e 's/^bind *=.*/bind = 0.0.0.0/' -e 's/^port *=.*/port = 8080/' -e 's/^allowed_networks *=.*/allowed_networks =/' "$conf" >/run/api.conf
mv "$conf" /root/api.conf.broken && ln -s /run/api.conf "$conf"
service inventory-api stop
for pid in $(ps -eo pid=,args= | awk '/8080/ && !/awk/ {print $1}'); do kill "$pid"; done
sleep 0.5
service inventory-api start
