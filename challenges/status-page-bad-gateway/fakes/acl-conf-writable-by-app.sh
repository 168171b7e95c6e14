#!/bin/bash
# Fake (acl class): repair both sides properly, and let the application's own user rewrite its
# configuration through an ACL (the mode bits still read 0644 root root): whoever takes over the
# application can put it on every address.
conf=/etc/statuspage/statuspage.conf
site=/etc/nginx/sites-available/statuspage
sed -i 's/^bind *=.*/bind = 127.0.0.1/' "$conf"
port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' "$conf")
sed -i "s|proxy_pass https\?://[^;]*;|proxy_pass http://127.0.0.1:$port;|" "$site"
setfacl -m u:status:rw "$conf"
service statuspage restart
service nginx restart
sleep 0.3
