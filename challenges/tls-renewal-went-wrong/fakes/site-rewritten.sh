#!/bin/bash
# Fake: throw the portal's site away and write a new minimal one with the renewed certificate,
# started the usual way (so nginx itself is genuine, the site is not the portal's own).
d=$(ls -d /etc/ssl/portal/renewal-* | tail -n 1)
cat "$d/portal01.crt" "$d/chain.pem" >/etc/ssl/portal/new.pem
cat >/etc/nginx/sites-available/portal <<CONF
server {
    listen 443 ssl;
    ssl_certificate /etc/ssl/portal/new.pem;
    ssl_certificate_key $(ls /etc/ssl/private/portal01-*.key);
    root /srv/www/portal;
}
CONF
pkill -x nginx || true; sleep 0.3
service nginx start
