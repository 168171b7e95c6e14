#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: take each
# live token from billing-api's token file and search the host for it; the one found elsewhere is
# the leaked one. Remove every copy (the lines that hold it), give its account a new random token,
# restart billing-api so it reads the file, and test both tokens.
set -uo pipefail
tokens=/etc/billing-api/tokens
leaked_account=""; leaked_token=""; files=""
while read -r acct tok; do
  case "$acct" in ''|'#'*) continue ;; esac
  hits=$(grep -rlF -- "$tok" /etc /var /root /home /tmp /srv /opt /usr/local 2>/dev/null | grep -vx "$tokens")
  if [ -n "$hits" ]; then
    echo "token of $acct found in:"; echo "$hits"
    leaked_account=$acct; leaked_token=$tok; files=$hits
  fi
done <"$tokens"
[ -n "$leaked_account" ] || { echo "no leaked token found"; exit 1; }

for f in $files; do sed -i "/$leaked_token/d" "$f"; done
new="blk_live_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
sed -i "s/^$leaked_account $leaked_token\$/$leaked_account $new/" "$tokens"
service billing-api restart
code() { curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $1" http://localhost:8080/v1/whoami; }
echo "old token: $(code "$leaked_token"), new token: $(code "$new")"
echo "ANSWER: The token of $leaked_account leaked from $(echo $files | tr ' ' ','| sed 's/,/ and /g'); I removed every copy, rotated it (new token in $tokens) and restarted billing-api."
