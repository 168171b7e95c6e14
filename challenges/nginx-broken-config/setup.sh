#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment by the platform,
# fed on stdin: it is never stored in the container). Picks one of several configuration errors
# at random (FAULTLINE_FAULT forces one, for tests), stamps the page with a per-deployment build
# id, leaves nginx stopped after a failed restart, and prints the values it chose as JSON.
set -euo pipefail
conf=/etc/nginx/sites-available/shop
faults=(missing_semicolon unknown_directive missing_include unbalanced_brace)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
build=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')

sed -i "s/BUILD_ID/$build/" /srv/www/shop/index.html
# A fresh deployment runs no nginx yet; `service nginx stop` would spend a second finding that out.
pkill -x nginx 2>/dev/null || true

case "$fault" in
  missing_semicolon) sed -i 's/^\(    listen 80 default_server\);/\1/' "$conf" ;;
  unknown_directive) sed -i 's/^    server_name /    server_nmae /' "$conf" ;;
  missing_include) sed -i 's|^    index index.html;|    index index.html;\n    include /etc/nginx/snippets/shop-cache.conf;|' "$conf" ;;
  unbalanced_brace) sed -i '0,/^    }$/{/^    }$/d}' "$conf" ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
if nginx -t >/dev/null 2>&1; then echo "setup: fault $fault did not break the configuration" >&2; exit 1; fi

# The failed restart someone did after the change (it leaves its trace in the error log).
service nginx start >/dev/null 2>&1 || true
: >/var/log/nginx/access.log
printf '{"fault":"%s","build":"%s"}\n' "$fault" "$build"
