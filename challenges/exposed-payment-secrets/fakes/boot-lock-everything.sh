#!/bin/bash
# Wrong fix: take every permission away from every file holding the secrets; nobody else can read
# them, and neither can the gateway at its next start: it keeps running on what it read, so
# payments work now and stop after the next reboot.
api_key=$(sed -n 's/^api_key *= *//p' /etc/payments-gw/credentials.ini)
for f in $(grep -rlF -- "$api_key" /etc /var /home /tmp 2>/dev/null) /etc/payments-gw/tls/key.pem; do
  chown root:root "$f"; chmod 0600 "$f"
done
