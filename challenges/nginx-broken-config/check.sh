#!/bin/bash
# Grading: runs in the grader beside web01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of web01's. It asks three things:
#   what a customer sees: http://web01/ from another host serves this deployment's shop page;
#   who answers: port 80 is held only by the system's /usr/sbin/nginx, started the usual way,
#     from the configuration that is on disk now;
#   what was repaired: the shop's own site configuration, not a replacement of it.
# Environment: FL_TARGET, FL_BUILD (the page's build id, chosen by setup.sh). Exit 0 = fixed.
url="http://${FL_TARGET}/"
headers=$(mktemp)
if ! body=$(curl -sS --max-time 5 -D "$headers" "$url" 2>&1); then
  refuse "Nothing answers at $url yet (${body#curl: }). Is nginx running?"
fi
status=$(awk 'NR==1{print $2}' "$headers")
[ "$status" = 200 ] || refuse "$url answers with HTTP $status instead of 200: the shop's page is not served."
[[ "$body" == *"$FL_BUILD"* ]] || refuse "Something answers at $url, but not with the shop's page from /srv/www/shop."

# Who answers: nginx's master and workers, and nothing else, hold port 80.
conf=(/etc/nginx/nginx.conf /etc/nginx/mime.types /etc/nginx/sites-available/shop /etc/nginx/sites-enabled
      /etc/nginx/conf.d /etc/nginx/modules-enabled /etc/nginx/snippets)
config_args=(); for c in "${conf[@]}"; do config_args+=(--config "$c"); done
who=$(fl service 80 /usr/sbin/nginx \
  --argv '["nginx: master process /usr/sbin/nginx"]' --argv '["nginx: master process nginx"]' \
  --argv '["nginx: worker process"]' "${config_args[@]}") || refuse "$who"

# What was repaired: the shop's site, the rest of nginx's configuration as installed.
same=$(fl pristine /etc/nginx/nginx.conf /etc/nginx/mime.types /etc/nginx/conf.d /etc/nginx/modules-enabled) || refuse "$same"
enabled=$(fl ls /etc/nginx/sites-enabled) || refuse "$enabled"
[ "$enabled" = shop ] || refuse "/etc/nginx/sites-enabled should enable the shop's site, and only it."
site=$(fl normalized --format nginx /etc/nginx/sites-enabled/shop) || refuse "$site"
original=$(fl normalized --format nginx --image /etc/nginx/sites-available/shop)
if [ "$site" != "$original" ]; then
  # Giving the site the snippet it asks for is a repair too, if the snippet only sets caching.
  with_snippet=${original/"index index.html;"/"index index.html; include /etc/nginx/snippets/shop-cache.conf;"}
  snippet=$(fl normalized --format nginx /etc/nginx/snippets/shop-cache.conf 2>/dev/null || true)
  if [ "$site" != "$with_snippet" ] || ! grep -Eqx '( ?(expires|add_header|etag|open_file_cache[a-z_]*) [^;{}]*;)* ?' <<<"$snippet"; then
    refuse "nginx serves the page, but the shop's site configuration is not the shop's own any more: repair the fault in it rather than replacing it."
  fi
fi
echo "nginx is up and serves the shop at $url."
