#!/bin/bash
# Grading: runs in the grader beside portal01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of portal01's. It asks:
#   what a company client sees: https://portal01/ from another host, trusting only the company's
#     root (FL_CA: this deployment's, whose keys no longer exist anywhere), gives a certificate
#     it accepts (valid now, for the name, with its chain) and the portal's page;
#   who answers: port 443 is held only by the system's nginx, started the usual way, after the
#     last change of its configuration and of the certificate and key it names;
#   what was repaired: the portal's site is its own, apart from which certificate and key files
#     it names.
# Environment: FL_TARGET, FL_BUILD, FL_CA (setup.sh). Exit 0 = fixed; stdout = feedback.
url="https://${FL_TARGET}/"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' "$FL_CA" >"$tmp/ca.pem"
code=$(curl -sS --max-time 6 --cacert "$tmp/ca.pem" -o "$tmp/body" -w '%{http_code}' "$url" 2>"$tmp/err")
rc=$?
why=$(sed 's/^curl: ([0-9]*) //' "$tmp/err" | head -n 1)
case $rc in
  0) ;;
  7) refuse "Nothing accepts connections on port 443 of $FL_TARGET: the portal is down." ;;
  60) refuse "Company clients refuse the portal's certificate: \"$why\"." ;;
  35) refuse "The TLS handshake with $url fails: \"$why\"." ;;
  28) refuse "$url did not answer in time." ;;
  *) refuse "Calling $url failed: $why" ;;
esac
[ "$code" = 200 ] || refuse "$url answers with HTTP $code instead of the portal's page."
grep -q "$FL_BUILD" "$tmp/body" || refuse "Something answers at $url with a trusted certificate, but not with the portal's page."

# Who answers: nginx, from its configuration and the certificate and key it names, as on disk.
site_text=$(fl read /etc/nginx/sites-available/portal) || refuse "/etc/nginx/sites-available/portal cannot be read: $site_text"
conf=(/etc/nginx/nginx.conf /etc/nginx/sites-available/portal /etc/nginx/sites-enabled /etc/nginx/conf.d /etc/nginx/modules-enabled)
conf+=($(sed -n 's/^[[:space:]]*ssl_certificate\(_key\)\?[[:space:]]\+\([^;[:space:]]*\);.*/\2/p' <<<"$site_text"))
args=(); for c in "${conf[@]}"; do args+=(--config "$c"); done
who=$(fl service 443 /usr/sbin/nginx \
  --argv '["nginx: master process /usr/sbin/nginx"]' --argv '["nginx: master process nginx"]' \
  --argv '["nginx: worker process"]' "${args[@]}") || refuse "$who"

# What was repaired: the site as shipped, apart from the certificate and key files it names.
paths() { sed 's/ssl_certificate_key [^;]*;/ssl_certificate_key KEY;/; s/ssl_certificate [^;]*;/ssl_certificate CERT;/'; }
site=$(fl normalized /etc/nginx/sites-available/portal | paths) || refuse "$site"
want=$(sed 's/#.*//' /etc/nginx/sites-available/portal | tr -s ' \t\n' ' ' | sed 's/^ //; s/ $//' | paths)
[ "$site" = "$want" ] || refuse "The portal answers, but its nginx site is not its own any more: only the certificate and key files it names were the renewal's to change."
enabled=$(fl ls /etc/nginx/sites-enabled) || refuse "$enabled"
[ "$enabled" = portal ] || refuse "/etc/nginx/sites-enabled should enable the portal's site, and only it."
same=$(fl pristine /etc/nginx/nginx.conf /etc/nginx/conf.d) || refuse "$same"
echo "Company clients trust https://$FL_TARGET/ again: the renewed certificate is served with its chain."
