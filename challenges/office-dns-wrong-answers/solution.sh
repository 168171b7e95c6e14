#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: ask ns01
# from its network address (what the clients use), read dnsmasq's log and configuration, find the
# change that makes it answer wrongly or not at all, undo it, restart, compare every answer with
# the inventory's export. The last line is the written answer: the file that held the fault.
set -uo pipefail
self=$(ip -4 -o addr show scope global | awk '{split($4, a, "/"); print a[1]; exit}')
ss -lntu | grep -E ':53\b' || echo "nothing listens on port 53"
tail -n 20 /var/log/dnsmasq/dnsmasq.log
grep -v '^#' /etc/dnsmasq.conf | grep .
head -n 20 /etc/dnsmasq.d/*.conf 2>/dev/null
culprit=""

# The export the configuration names must exist (dnsmasq logs "failed to load names from ...").
named=$(sed -n 's/^addn-hosts=//p' /etc/dnsmasq.conf)
if [ ! -f "$named" ]; then
  echo "addn-hosts names $named, which does not exist: the export is /etc/office/hosts"
  sed -i "s|^addn-hosts=.*|addn-hosts=/etc/office/hosts|" /etc/dnsmasq.conf
  culprit=/etc/dnsmasq.conf
fi
# Local additions that move the port, hide dnsmasq on the loopback or add records of their own.
for f in /etc/dnsmasq.d/*.conf; do
  [ -e "$f" ] || continue
  if grep -qE '^(port|listen-address|interface|bind-interfaces|except-interface|host-record|address|cname)\b' "$f"; then
    echo "$f changes what the clients get:"; cat "$f"
    mkdir -p /root/dnsmasq-disabled && mv "$f" /root/dnsmasq-disabled/
    culprit=$f
  fi
done

dnsmasq --test || exit 1
service dnsmasq restart
sleep 0.5
# Every name of the export, asked the way a client does.
bad=0
while read -r ip name _; do
  case "$ip" in ''|'#'*) continue ;; esac
  got=$(dig +short +time=2 +tries=1 @"$self" "$name" | tr '\n' ' ')
  [ "$got" = "$ip " ] || { echo "MISMATCH $name: $got (inventory: $ip)"; bad=1; }
done </etc/office/hosts
[ "$bad" = 0 ] || exit 1
echo "every name of /etc/office/hosts resolves to its inventory address at $self"
echo "ANSWER: The fault was in $culprit: it made dnsmasq answer the clients wrongly (or not at all); I moved it out / repaired it and restarted dnsmasq."
