#!/bin/bash
# Fake: the real nginx, started the usual way, but the site replaced by a static copy of the
# page (taken from the application by hand) instead of repairing the proxy.
sed -i 's/^bind *=.*/bind = 127.0.0.1/' /etc/statuspage/statuspage.conf
service statuspage restart >/dev/null
port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' /etc/statuspage/statuspage.conf)
mkdir -p /srv/status && curl -s "http://127.0.0.1:$port/" >/srv/status/index.html
cat >/etc/nginx/sites-available/statuspage <<'CONF'
server {
    listen 80 default_server;
    root /srv/status;
    index index.html;
}
CONF
service nginx stop >/dev/null 2>&1; pkill -x nginx; sleep 0.3
service nginx start
