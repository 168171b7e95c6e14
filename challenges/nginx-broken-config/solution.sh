#!/bin/bash
# Reference fix (CI runs it through the SSH gateway between a failing and a passing check). As a
# person would: ask nginx what is wrong, read the line it names, repair that, test, start. It
# reads nothing of the platform's: the fault is found from nginx -t's own words.
set -uo pipefail
conf=/etc/nginx/sites-available/shop
report=$(nginx -t 2>&1); echo "$report"
line=$(grep -o 'shop:[0-9]*' <<<"$report" | head -1 | cut -d: -f2)
case "$report" in
  *'unknown directive "server_nmae"'*)
    sed -i 's/^\(\s*\)server_nmae /\1server_name /' "$conf" ;;
  *'shop-cache.conf" failed'*)
    # The site includes a snippet that was never shipped: drop the include.
    sed -i '\|include /etc/nginx/snippets/shop-cache.conf;|d' "$conf" ;;
  *'unexpected end of file, expecting "}"'*)
    # A block lost its closing brace: the one before `location /static/` (try_files' block).
    awk '/^    location \/static\/ \{$/ && prev !~ /^    }$/ { print "    }"; print "" } { print; prev = $0 }' "$conf" >/tmp/shop &&
      cat /tmp/shop >"$conf" && rm -f /tmp/shop ;;
  *'"listen" directive'*|*'directive "listen" is not terminated'*|*'unexpected "server_name"'*|*'invalid parameter "server_name"'*)
    sed -i 's/^\(\s*listen 80 default_server\)\s*$/\1;/' "$conf" ;;
  *)
    echo "nginx -t reports something this fix does not know (line ${line:-?})"; exit 1 ;;
esac
nginx -t || exit 1
service nginx start
