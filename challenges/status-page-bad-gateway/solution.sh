#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: see what
# customers get, ask nginx what is wrong (nginx -t, its error log), see where the application
# really listens (its configuration, its log, ss), make the two agree on 127.0.0.1 and the
# application's port, restart both, and test through the host's network address.
set -uo pipefail
site=/etc/nginx/sites-available/statuspage
conf=/etc/statuspage/statuspage.conf
curl -s -o /dev/null -w 'customers get HTTP %{http_code}\n' --max-time 5 http://localhost/
nginx -t
tail -n 3 /var/log/nginx/statuspage.error.log 2>/dev/null
tail -n 3 /var/log/statuspage/statuspage.log
ss -ltn
grep -n 'proxy_pass' "$site"
grep -nE '^(bind|port) *=' "$conf"

# The application is private: back on the loopback address, where nginx expects it.
bind=$(sed -n 's/^bind *= *\([^ #;]*\).*/\1/p' "$conf")
if [ "$bind" != 127.0.0.1 ] && [ "$bind" != localhost ]; then
  echo "statuspage listens on $bind: back to 127.0.0.1"
  sed -i 's/^bind *=.*/bind = 127.0.0.1/' "$conf"
fi
# nginx follows the application's port, on the loopback address.
port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' "$conf")
sed -i "s|proxy_pass https\?://[^;]*;|proxy_pass http://127.0.0.1:$port;|" "$site"
grep -n 'proxy_pass' "$site"

service statuspage restart
nginx -t || exit 1
service nginx restart
ip=$(ip -4 -o addr show scope global | awk '{split($4, a, "/"); print a[1]; exit}')
curl -sS --max-time 5 -o /dev/null -w "http://$ip/ answers HTTP %{http_code}\n" "http://$ip/"
