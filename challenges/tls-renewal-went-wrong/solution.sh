#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: see what a
# client gets (openssl s_client against the PKI's root), ask nginx (nginx -t), look at the
# installed certificate (dates, names) and at the PKI team's delivery; install the certificate
# that is valid now for portal01, followed by its chain, with the private key that belongs to it;
# test; restart.
set -uo pipefail
delivery=$(ls -d /etc/ssl/portal/renewal-* | tail -n 1)
fullchain=/etc/ssl/portal/portal01.fullchain.pem
key=/etc/ssl/private/portal01.key
cat "$delivery/README"
nginx -t
echo | openssl s_client -connect 127.0.0.1:443 -servername portal01 -CAfile "$delivery/root-ca.pem" 2>/dev/null | grep -E 'Verify return code|^ *[0-9] s:'
openssl x509 -in "$fullchain" -noout -subject -dates -ext subjectAltName
grep -c 'BEGIN CERTIFICATE' "$fullchain"

# The delivered certificate that is valid now and names portal01.
cert=""
for c in "$delivery"/*.crt; do
  if openssl x509 -in "$c" -noout -checkend 0 >/dev/null && openssl x509 -in "$c" -noout -checkhost portal01 | grep -q 'does match'; then
    cert=$c
  fi
done
[ -n "$cert" ] || { echo "no delivered certificate is valid for portal01"; exit 1; }
openssl verify -CAfile "$delivery/root-ca.pem" -untrusted "$delivery/chain.pem" "$cert" || exit 1
# Its private key: the one whose public key is the certificate's.
want=$(openssl x509 -in "$cert" -noout -pubkey | openssl sha256)
match=""
for k in /etc/ssl/private/*.key; do
  [ "$(openssl pkey -in "$k" -pubout 2>/dev/null | openssl sha256)" = "$want" ] && match=$k
done
[ -n "$match" ] || { echo "no key in /etc/ssl/private belongs to $cert"; exit 1; }
echo "installing $cert (+ chain) with $match"
cat "$cert" "$delivery/chain.pem" >"$fullchain"
[ "$match" = "$key" ] || { cat "$match" >"$key"; chmod 0600 "$key"; }
nginx -t || exit 1
service nginx restart
sleep 0.5
echo | openssl s_client -connect 127.0.0.1:443 -servername portal01 -CAfile "$delivery/root-ca.pem" 2>/dev/null | grep 'Verify return code'
