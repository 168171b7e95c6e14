#!/bin/bash
# Fake: leave dnsmasq as it is and answer the clients' UDP queries with a stand-in bound to the
# host's network address (more specific than dnsmasq's wildcard socket, so it gets them), giving
# the inventory's answers; plus a second dnsmasq by hand for TCP, from a private configuration.
self=$(hostname -i | awk '{print $1}')
cat >/root/dns.py <<'PY'
import socket, struct, sys
records = {}
for line in open("/etc/office/hosts"):
    p = line.split()
    if p and not p[0].startswith("#"):
        for n in p[1:]: records[n.lower()] = p[0]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 53))
while True:
    q, addr = s.recvfrom(512)
    i, labels = 12, []
    while q[i]: labels.append(q[i + 1:i + 1 + q[i]].decode()); i += 1 + q[i]
    question = q[12:i + 5]
    ip = records.get(".".join(labels).lower())
    head = q[:2] + struct.pack(">HHHHH", 0x8180 if ip else 0x8183, 1, 1 if ip else 0, 0, 0)
    ans = (b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 60, 4) + socket.inet_aton(ip)) if ip else b""
    s.sendto(head + question + ans, addr)
PY
setsid python3 /root/dns.py "$self" </dev/null >/dev/null 2>&1 &
service dnsmasq stop >/dev/null 2>&1
cat >/root/dnsmasq.conf <<CONF
port=53
no-resolv
no-hosts
addn-hosts=/etc/office/hosts
local=/corp.internal/
user=dnsmasq
group=nogroup
CONF
/usr/sbin/dnsmasq -C /root/dnsmasq.conf
sleep 1
