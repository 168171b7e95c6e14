#!/bin/bash
# Fake: the real nginx binary, started from a throwaway configuration that serves the shop, while
# the site's broken configuration stays broken.
cat >/root/min.conf <<'CONF'
events {}
http { server { listen 80 default_server; root /srv/www/shop; index index.html; } }
CONF
nginx -c /root/min.conf
sleep 0.5
