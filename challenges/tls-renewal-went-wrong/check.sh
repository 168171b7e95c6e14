#!/bin/bash
# Grading: runs in the grader beside portal01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of portal01's. The same questions live and after a boot of a copy:
#   what a company client sees: https://portal01/ and its other name, https://portal.corp.example/
#     from another host, trusting only the company's root (FL_CA: this deployment's,
#     whose keys no longer exist anywhere), gives a certificate it accepts (valid now, for the
#     name asked, with its chain) and the portal's page;
#   who answers: port 443 is held only by the system's nginx, started the usual way, after the
#     last change of its configuration and of the certificate and key files it names;
#   what was repaired: the portal's site, token for token as nginx reads it, is its own apart from
#     which certificate and key files it names; nginx's other files are as installed;
#   the private keys stay private: every file that holds one (in any form: PEM, DER, base64, the
#     hex `openssl pkey -text` prints; at any size, anywhere the system can write) is readable by
#     root alone, as the kernel decides (mode bits and ACLs).
# Environment: FL_TARGET, FL_BUILD, FL_CA, FL_KEY_NEEDLES (hex of byte strings found only in the
# portal's private keys) from setup.sh. Exit 0 = fixed; stdout = feedback.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' "$FL_CA" >"$tmp/ca.pem"
# Company clients ask for either of the portal's names (both resolve to the same host): each is
# asked every time, in the same order, so the verdict on a broken portal never depends on a draw.
address=$(getent hosts "$FL_TARGET" | awk '{print $1; exit}')
[ -n "$address" ] || refuse "$FL_TARGET does not resolve from the grader."
for name in portal01 portal.corp.example; do
  url="https://$name/"
  code=$(printf 'url = "%s"\nresolve = "%s"\n' "$url" "$name:443:$address" |
    curl -K - -sS --max-time 6 --cacert "$tmp/ca.pem" -o "$tmp/body" -w '%{http_code}' 2>"$tmp/err")
  rc=$?
  why=$(sed 's/^curl: ([0-9]*) //' "$tmp/err" | head -n 1)
  case $rc in
    0) ;;
    7) refuse "Nothing accepts connections on port 443 of $FL_TARGET: the portal is down." ;;
    60) refuse "Company clients asking for $name refuse the portal's certificate: \"$why\"." ;;
    35) refuse "The TLS handshake with $url fails: \"$why\"." ;;
    28) refuse "$url did not answer in time." ;;
    *) refuse "Calling $url failed: $why" ;;
  esac
  [ "$code" = 200 ] || refuse "$url answers with HTTP $code instead of the portal's page."
  page=$(cat "$tmp/body")
  [[ "$page" == *"$FL_BUILD"* ]] || refuse "Something answers at $url with a trusted certificate, but not with the portal's page."
done

# What nginx reads of the portal's site: its tokens (a '#' only starts a comment where a token
# starts), and the certificate and key files they name.
site=$(fl normalized --format nginx /etc/nginx/sites-available/portal) || refuse "$site"
files=$(grep -oE 'ssl_certificate(_key)? [^ ;{}]+ ;' <<<"$site" | awk '{print $2}' | sort -u)

# Who answers: nginx, from its configuration and the certificate and key it names, as on disk.
conf=(/etc/nginx /etc/nginx/nginx.conf /etc/nginx/mime.types /etc/nginx/sites-available /etc/nginx/sites-available/portal
      /etc/nginx/sites-enabled /etc/nginx/conf.d /etc/nginx/modules-enabled)
for f in $files; do conf+=("$f" "${f%/*}"); done
args=(); for c in "${conf[@]}"; do args+=(--config "$c"); done
who=$(fl service 443 /usr/sbin/nginx \
  --argv '["nginx: master process /usr/sbin/nginx"]' --argv '["nginx: master process nginx"]' \
  --argv '["nginx: worker process"]' "${args[@]}") || refuse "$who"

# What was repaired: the site as shipped, apart from the certificate and key files it names.
paths() { sed -E 's/ssl_certificate_key [^ ;{}]+ ;/ssl_certificate_key KEY ;/g; s/ssl_certificate [^ ;{}]+ ;/ssl_certificate CERT ;/g'; }
want=$(fl normalized --format nginx --image /etc/nginx/sites-available/portal) || refuse "$want"
[ "$(paths <<<"$site")" = "$(paths <<<"$want")" ] || refuse "The portal answers, but its nginx site is not its own any more: only the certificate and key files it names were the renewal's to change."
same=$(fl pristine /etc/nginx/nginx.conf /etc/nginx/mime.types /etc/nginx/conf.d /etc/nginx/modules-enabled \
  /etc/nginx/sites-enabled /etc/init.d /etc/default/nginx /etc/rc.local /etc/rc{0,1,2,3,4,5,6,S}.d) || refuse "$same"

# The private keys: every copy, in any form and at any size, readable by root alone.
cat >"$tmp/keys.py" <<'PY'
import os
ns = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "fl.py", "exec"), ns)
needles = [bytes.fromhex(h) for h in os.environ["FL_KEY_NEEDLES"].split()]
holders = []
for top in ("/etc", "/var", "/root", "/home", "/srv", "/opt", "/usr/local", "/tmp", "/run", "/dev/shm"):
    try:
        for path, fd in ns["walk_files"](top):
            if ns["contains"](fd, needles):
                holders.append(path)
    except FileNotFoundError:
        continue
users = [u for u, (uid, _) in ns["_passwd"]().items() if uid != 0]
for path in holders:
    for user in users:
        if "r" in ns["access"](user, path):
            print(f"A copy of the portal's private key, {path}, can be read by {user}: a private key must be readable by root alone (check its mode, its ACLs and its directories).")
            raise SystemExit(1)
print(f"{len(holders)} private")
PY
keys=$(python3 -I -S "$tmp/keys.py") || refuse "${keys:-The grader could not look for copies of the private keys.}"
echo "Company clients trust https://$name/ again: the renewed certificate is served with its chain."
