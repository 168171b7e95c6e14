#!/bin/bash
# Fake: repair the service, then switch the firewall and the static routes off (live), with an
# empty rules file so a reload agrees; the copied routes file stays.
sed -i 's/^bind *=.*/bind = 0.0.0.0/' /etc/wms-api/wms-api.conf
service wms-api restart
service static-routes stop
service firewall stop
printf '*filter\n:INPUT ACCEPT [0:0]\n:FORWARD ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\nCOMMIT\n' >/etc/iptables/rules.v4
