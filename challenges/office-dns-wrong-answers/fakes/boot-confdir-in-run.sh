#!/bin/bash
# Fake (boot class): leave the faulty local additions where they were, give dnsmasq a clean copy
# of its directory in /run and point /etc/dnsmasq.d at it (and repair dnsmasq.conf's path if that
# was the fault). The clients get right answers now; /run is empty after a reboot, and dnsmasq
# refuses to start without its directory.
mkdir -p /run/dnsmasq.d
for f in /etc/dnsmasq.d/*; do
  grep -qE '^(port|listen-address|bind-interfaces|host-record)' "$f" || cp -p "$f" /run/dnsmasq.d/
done
mv /etc/dnsmasq.d /root/dnsmasq.d.orig
ln -s /run/dnsmasq.d /etc/dnsmasq.d
sed -i 's|^addn-hosts=.*|addn-hosts=/etc/office/hosts|' /etc/dnsmasq.conf
service dnsmasq restart
