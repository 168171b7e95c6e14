#!/bin/bash
# Grading: runs in the grader beside web01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of web01's. The same questions live and after a boot of a copy:
#   what a customer sees: http://web01/ from another host serves this deployment's shop page;
#   who answers: port 80 is held only by the system's /usr/sbin/nginx, started the usual way,
#     after the last change of every file and directory of its configuration;
#   what was repaired: nginx's configuration as installed, the shop's site token for token as
#     nginx reads it (a '#' only starts a comment where a token starts), root's alone to change.
# Environment: FL_TARGET, FL_BUILD (the page's build id, chosen by setup.sh). Exit 0 = fixed.
url="http://${FL_TARGET}/"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
code=$(fetch "$url" -sS --max-time 5 -o "$tmp/body" -w '%{http_code}' 2>"$tmp/err")
case $? in
  0) ;;
  7) refuse "Nothing answers at $url yet (connection refused). Is nginx running?" ;;
  28) refuse "$url did not answer in time." ;;
  *) refuse "Calling $url failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")" ;;
esac
[ "$code" = 200 ] || refuse "$url answers with HTTP $code instead of 200: the shop's page is not served."
page=$(cat "$tmp/body")
[[ "$page" == *"$FL_BUILD"* ]] || refuse "Something answers at $url, but not with the shop's page from /srv/www/shop."

# Who answers: nginx's master and workers, and nothing else, hold port 80, started after the last
# change of anything nginx reads at start (directories too: a file swapped in for the start and
# put back changes its directory).
conf=(/etc/nginx /etc/nginx/nginx.conf /etc/nginx/mime.types /etc/nginx/sites-available /etc/nginx/sites-available/shop
      /etc/nginx/sites-enabled /etc/nginx/conf.d /etc/nginx/modules-enabled /etc/nginx/snippets /etc/nginx/snippets/shop-cache.conf)
config_args=(); for c in "${conf[@]}"; do config_args+=(--config "$c"); done
who=$(fl service 80 /usr/sbin/nginx \
  --argv '["nginx: master process /usr/sbin/nginx"]' --argv '["nginx: master process nginx"]' \
  --argv '["nginx: worker process"]' "${config_args[@]}") || refuse "$who"

# What was repaired: the rest of nginx's configuration exactly as installed (the site enabled by
# its original link), the shop's site as nginx reads it.
same=$(fl pristine /etc/nginx/nginx.conf /etc/nginx/mime.types /etc/nginx/conf.d /etc/nginx/modules-enabled \
  /etc/nginx/sites-enabled /etc/init.d/nginx /etc/default/nginx) || refuse "$same"
site=$(fl normalized --format nginx /etc/nginx/sites-available/shop) || refuse "$site"
original=$(fl normalized --format nginx --image /etc/nginx/sites-available/shop) || refuse "$original"
if [ "$site" != "$original" ]; then
  # Giving the site the snippet it asks for is a repair too, if the snippet only sets caching.
  with_snippet=${original/"index index.html ;"/"index index.html ; include /etc/nginx/snippets/shop-cache.conf ;"}
  snippet=$(fl normalized --format nginx /etc/nginx/snippets/shop-cache.conf 2>/dev/null) || snippet="missing"
  if [ "$site" != "$with_snippet" ] || ! grep -Eqx '( ?(expires|etag|add_header [A-Za-z-]+) [^;{}"'"'"'$]* ;)* ?' <<<"$snippet"; then
    refuse "nginx serves the page, but the shop's site configuration is not the shop's own any more: repair the fault in it rather than replacing it."
  fi
fi
# nginx runs it as root: only root may change it (mode bits and ACLs).
for f in /etc/nginx/sites-available/shop /etc/nginx/snippets/shop-cache.conf; do
  st=$(fl stat "$f" 2>/dev/null) || { [ "$f" = /etc/nginx/sites-available/shop ] && refuse "$st"; continue; }
  read -r kind mode uid _ _ acl <<<"$st"
  if [ "$kind" != file ] || [ "$uid" != 0 ] || [ $((8#$mode & 8#022)) != 0 ] || [ -n "$acl" ]; then
    refuse "$f is not root's alone to change (owner, mode or ACL): nginx runs it as root, so nobody else may write it."
  fi
done
echo "nginx is up and serves the shop at $url."
