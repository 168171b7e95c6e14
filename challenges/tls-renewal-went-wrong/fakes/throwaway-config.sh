#!/bin/bash
# Fake: the real nginx binary, started by hand from a throwaway configuration that serves the
# portal with the renewed certificate, while the site's own configuration stays as it was.
pkill -x nginx || true; sleep 0.3
d=$(ls -d /etc/ssl/portal/renewal-* | tail -n 1)
cat "$d/portal01.crt" "$d/chain.pem" >/root/full.pem
cat >/root/min.conf <<CONF
events {}
http { server { listen 443 ssl; ssl_certificate /root/full.pem; ssl_certificate_key $(ls /etc/ssl/private/portal01-*.key); root /srv/www/portal; } }
CONF
nginx -c /root/min.conf
sleep 0.5
