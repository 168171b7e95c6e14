#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: read
# the error nginx -t reports, repair that line of the site configuration, check, start.
set -uo pipefail
conf=/etc/nginx/sites-available/shop
nginx -t 2>&1 | sed 's/^/nginx -t: /'
case "${FL_FAULT:-}" in
  missing_semicolon) sed -i 's/^\(    listen 80 default_server\)$/\1;/' "$conf" ;;
  unknown_directive) sed -i 's/^    server_nmae /    server_name /' "$conf" ;;
  missing_include) sed -i '\|include /etc/nginx/snippets/shop-cache.conf;|d' "$conf" ;;
  unbalanced_brace) sed -i '0,/^    location \/static\/ {$/s//    }\n\n    location \/static\/ {/' "$conf" ;;
esac
nginx -t || exit 1
service nginx start
