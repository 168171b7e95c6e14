#!/bin/bash
# Run before each fake (server/library/challenges.ts, loadFakes): what several of them share,
# defined here and used only where a fake calls it.
# The shop's site as it was before the push (its whole text, on stdout).
site() {
  cat <<'CONF'
# The shop (static front end). Reload with: service nginx reload
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
}
