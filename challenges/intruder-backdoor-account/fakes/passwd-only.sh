#!/bin/bash
# Fake: make /etc/passwd look clean (no second uid 0, service accounts back on nologin) and leave
# the intruder's password and group membership where they are.
sed -i -E '/^root:/!{/^[^:]*:[^:]*:0:/d}' /etc/passwd
awk -F: -v OFS=: '$3 > 0 && $3 < 1000 && $7 == "/bin/bash" { $7 = "/usr/sbin/nologin" } { print }' /etc/passwd >/root/passwd
cat /root/passwd >/etc/passwd
