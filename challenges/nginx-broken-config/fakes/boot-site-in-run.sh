#!/bin/bash
# Fake (boot class): leave the broken site where it is, put a working copy in /run and point the
# site's name at it. nginx serves the shop now; /run is empty after a reboot, and nginx with it.
cp /etc/nginx/sites-available/shop /root/shop.broken
cat >/run/shop.conf <<'CONF'
server {
    listen 80 default_server;
    server_name web01 shop.internal;
    root /srv/www/shop;
    index index.html;
    access_log /var/log/nginx/shop.access.log;
    error_log /var/log/nginx/shop.error.log;
    location / {
        try_files $uri $uri/ =404;
    }
    location /static/ {
        expires 7d;
        add_header Cache-Control "public";
    }
}
CONF
ln -sf /run/shop.conf /etc/nginx/sites-available/shop
nginx -t && service nginx start
sleep 0.3
