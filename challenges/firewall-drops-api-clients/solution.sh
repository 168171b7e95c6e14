#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: the
# service runs and answers on localhost, so look at the firewall (its live rules and counters,
# the rules file), find the rule that keeps the front ends out, repair the file and reload it,
# then test through the network address.
set -uo pipefail
rules=/etc/iptables/rules.v4
conf=/etc/orders-api/orders-api.conf
port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' "$conf")
ss -ltn
curl -s --max-time 3 "http://127.0.0.1:$port/health"
iptables -L INPUT -n -v --line-numbers
grep -n '^-A' "$rules"
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}'); self=${cidr%/*}

# Rules that drop whole networks (ours included) come out.
sed -i '/^-A INPUT -s [0-9./]* -m comment --comment "[^"]*" -j DROP$/d' "$rules"
# The API's rule: TCP, its port, from anywhere on the application network (it is the one with the
# "orders-api" comment).
sed -i "s|^-A INPUT .*--comment \"orders-api\" -j ACCEPT\$|-A INPUT -p tcp -m tcp --dport $port -m comment --comment \"orders-api\" -j ACCEPT|" "$rules"
grep -n '^-A' "$rules"
service firewall restart || exit 1
iptables -L INPUT -n --line-numbers
curl -sS --max-time 5 "http://$self:$port/health"
