#!/bin/bash
# Fake: leave nginx's site as it is and start a second copy of the application by hand, as root,
# from a private configuration that puts it where nginx looks (bypassing its service and user).
site=/etc/nginx/sites-available/statuspage
port=$(grep -o 'proxy_pass https\?://[^;]*' "$site" | grep -o '[0-9]*$')
sed -i "s|proxy_pass https\?://[^;]*;|proxy_pass http://127.0.0.1:$port;|" "$site"
sed -e 's/^bind *=.*/bind = 127.0.0.1/' -e "s/^port *=.*/port = $port/" /etc/statuspage/statuspage.conf >/root/statuspage.conf
service statuspage stop >/dev/null 2>&1
setsid /usr/bin/python3 /usr/lib/statuspage/statuspage.py /root/statuspage.conf </dev/null >/dev/null 2>&1 &
sleep 0.5
service nginx stop >/dev/null 2>&1; pkill -x nginx; sleep 0.3
service nginx start
sleep 0.5
