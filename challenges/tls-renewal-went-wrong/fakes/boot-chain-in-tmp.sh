#!/bin/bash
# Fake (boot class): leave the installed files as they are, build the right chain and key pair in
# /tmp and point the site at them. The portal works now; /tmp is empty after a reboot.
d=$(ls -d /etc/ssl/portal/renewal-* | tail -n 1)
umask 077
cat "$d/portal01.crt" "$d/chain.pem" >/tmp/portal.pem
cat /etc/ssl/private/portal01-*.key >/tmp/portal.key
sed -i -e 's|ssl_certificate /etc/ssl/portal/portal01.fullchain.pem;|ssl_certificate /tmp/portal.pem;|' \
  -e 's|ssl_certificate_key /etc/ssl/private/portal01.key;|ssl_certificate_key /tmp/portal.key;|' /etc/nginx/sites-available/portal
service nginx restart
sleep 0.3
