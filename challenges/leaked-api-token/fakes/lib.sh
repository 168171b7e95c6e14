#!/bin/bash
# Run before each fake (server/library/challenges.ts, loadFakes): what several of them share,
# defined here and done only where a fake calls it.
tokens=/etc/billing-api/tokens
# The leaked token, found as the reference finds it: leaked_account, leaked_token, and the files
# it leaked to (files).
find_leak() {
  while read -r acct tok; do
    case "$acct" in ''|'#'*) continue ;; esac
    hits=$(grep -rlF -- "$tok" /etc /var /root /home /tmp /srv /opt /usr/local 2>/dev/null | grep -vx "$tokens")
    if [ -n "$hits" ]; then leaked_account=$acct; leaked_token=$tok; files=$hits; fi
  done <"$tokens"
}
# The rest of the reference fix: the copies removed, the account given a new token (new),
# billing-api restarted.
rotate() {
  for f in $files; do sed -i "/$leaked_token/d" "$f"; done
  new="blk_live_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  sed -i "s/^$leaked_account $leaked_token\$/$leaked_account $new/" "$tokens"
  service billing-api restart >/dev/null
}
