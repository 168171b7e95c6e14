#!/bin/bash
# Fake: make the answers "right" by editing the inventory's export to match what dnsmasq says,
# leaving the faulty change in place (and, where dnsmasq does not answer at all, fixing only that).
sed -i 's|^addn-hosts=.*|addn-hosts=/etc/office/hosts|' /etc/dnsmasq.conf
for f in /etc/dnsmasq.d/*.conf; do
  [ -e "$f" ] || continue
  if grep -q '^host-record=' "$f"; then
    # Put the stale address into the export instead of the right one.
    IFS=, read -r name old < <(sed -n 's/^host-record=//p' "$f")
    sed -i "s/^[0-9.]* $name /$old $name /" /etc/office/hosts
    rm -f "$f"
  else
    rm -f "$f"
    echo '10.254.254.254 extra.corp.internal extra' >>/etc/office/hosts
  fi
done
service dnsmasq restart
