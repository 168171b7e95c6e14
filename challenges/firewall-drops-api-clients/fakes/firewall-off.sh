#!/bin/bash
# Fake: "fix" it by switching the firewall off (and emptying the rules file so a reload agrees).
service firewall stop
printf '*filter\n:INPUT ACCEPT [0:0]\n:FORWARD ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\nCOMMIT\n' >/etc/iptables/rules.v4
