#!/bin/bash
# Fake (boot class): leave both broken files where they are, put repaired copies in /run and point
# the files' names at them. Customers get the page now; /run is empty after a reboot.
conf=/etc/statuspage/statuspage.conf
site=/etc/nginx/sites-available/statuspage
sed 's/^bind *=.*/bind = 127.0.0.1/' "$conf" >/run/statuspage.conf
port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' /run/statuspage.conf)
sed "s|proxy_pass https\?://[^;]*;|proxy_pass http://127.0.0.1:$port;|" "$site" >/run/statuspage.site
mkdir -p /root/broken && mv "$conf" "$site" /root/broken/
ln -s /run/statuspage.conf "$conf"
ln -s /run/statuspage.site "$site"
service statuspage restart
service nginx restart
sleep 0.3
