#!/bin/bash
# Grading: runs in the grader beside status01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of status01's. It asks:
#   what a customer sees: http://status01/ from another host serves this deployment's status page;
#   who answers: port 80 is held only by the system's nginx, started the usual way from the
#     configuration on disk, and the application's port only by the system's statuspage program,
#     as its own user, on the loopback address;
#   what was repaired: nginx still proxies to the application (the site's own configuration, with
#     the port the application really uses), the application's configuration is its own.
# Environment: FL_TARGET, FL_INSTANCE (chosen by setup.sh). Exit 0 = fixed; stdout = feedback.
url="http://${FL_TARGET}/"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
code=$(curl -sS --max-time 6 -o "$tmp/body" -w '%{http_code}' "$url" 2>"$tmp/err")
case $? in
  0) ;;
  7) refuse "Nothing accepts connections on port 80 of $FL_TARGET: customers get \"connection refused\". Is nginx running?" ;;
  28) refuse "$url did not answer in time." ;;
  *) refuse "Calling $url failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")" ;;
esac
case $code in
  200) ;;
  502) refuse "nginx answers $url with 502 Bad Gateway: it cannot reach the status page application behind it." ;;
  504) refuse "nginx answers $url with 504 Gateway Timeout: the application behind it does not answer." ;;
  *) refuse "$url answers with HTTP $code instead of the status page." ;;
esac
grep -q "content=\"$FL_INSTANCE\"" "$tmp/body" || refuse "Something answers at $url, but not with this host's status page application."

# Who answers on port 80: nginx's master and workers, and nothing else.
nginx_conf=(/etc/nginx/nginx.conf /etc/nginx/mime.types /etc/nginx/sites-available/statuspage /etc/nginx/sites-enabled
            /etc/nginx/conf.d /etc/nginx/modules-enabled /etc/nginx/proxy_params)
args=(); for c in "${nginx_conf[@]}"; do args+=(--config "$c"); done
who=$(fl service 80 /usr/sbin/nginx \
  --argv '["nginx: master process /usr/sbin/nginx"]' --argv '["nginx: master process nginx"]' \
  --argv '["nginx: worker process"]' "${args[@]}") || refuse "$who"

# The application: where its configuration says, on the loopback address, the system's program.
app_conf=/etc/statuspage/statuspage.conf
conf_text=$(fl read "$app_conf") || refuse "$app_conf cannot be read: ${conf_text}"
value() { sed -n "s/^$1 *= *\\([^ #;]*\\).*/\\1/p" <<<"$conf_text" | tail -n 1; }
bind=$(value bind); port=$(value port)
[[ "$port" =~ ^[0-9]{1,5}$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ] || refuse "$app_conf does not give statuspage a valid port."
case "$bind" in
  127.0.0.1|localhost) ;;
  *) refuse "statuspage is configured to listen on \"$bind\": it is only for nginx and must listen on the loopback address, as before." ;;
esac
if curl -s -o /dev/null --max-time 3 "http://${FL_TARGET}:$port/"; then
  refuse "The application's port $port answers other hosts directly: it must only be reachable through nginx."
fi
pids=$(fl service "$port" /usr/bin/python3.11 \
  --argv '["/usr/bin/python3","-I","-S","/usr/lib/statuspage/statuspage.py","/etc/statuspage/statuspage.conf"]' \
  --config "$app_conf") || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = status ] || refuse "statuspage runs as $user; it must run as its own user, status (use its service script)."
done
while read -r addr _ _; do
  [ "$addr" = 127.0.0.1 ] || refuse "statuspage listens on $addr:$port: it must only listen on the loopback address."
done < <(fl listeners "$port")

# What was repaired: both files are the originals, apart from the port they agree on.
norm() { sed 's/#.*//' | tr -s ' \t\n' ' ' | sed 's/^ //; s/ $//'; }
site=$(fl normalized /etc/nginx/sites-available/statuspage) || refuse "$site"
want=$(sed "s|proxy_pass http://127.0.0.1:8080;|proxy_pass http://127.0.0.1:$port;|" /etc/nginx/sites-available/statuspage | norm)
[ "$site" = "$want" ] || refuse "The page is served, but the status page's nginx site is not its own configuration any more, proxying to the application on 127.0.0.1:$port: repair the fault rather than replacing the site."
enabled=$(fl ls /etc/nginx/sites-enabled) || refuse "$enabled"
[ "$enabled" = statuspage ] || refuse "/etc/nginx/sites-enabled should enable the status page's site, and only it."
same=$(fl pristine /etc/nginx/nginx.conf /etc/nginx/conf.d /etc/nginx/proxy_params) || refuse "$same"
app=$(fl normalized "$app_conf" | sed 's/bind = localhost /bind = 127.0.0.1 /') || refuse "$app"
want=$(sed "s/^port = .*/port = $port/" "$app_conf" | norm)
[ "$app" = "$want" ] || refuse "$app_conf is not the application's own configuration any more: only its address and port are the application's to choose."
echo "Customers get the status page at $url again: nginx proxies to statuspage on 127.0.0.1:$port."
