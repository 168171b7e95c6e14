#!/bin/bash
# Fake: a user's `tail -f` keeps the file the token leaked from open; then rotate and clean up as
# the reference does (sed -i writes a new file and removes the old one): no file on disk holds the
# token any more, and the removed one, still open, keeps it on the host.
set -u
tokens=/etc/billing-api/tokens
while read -r acct tok; do
  case "$acct" in ''|'#'*) continue ;; esac
  hits=$(grep -rlF -- "$tok" /etc /var /root /home /tmp /srv /opt /usr/local 2>/dev/null | grep -vx "$tokens")
  if [ -n "$hits" ]; then leaked_account=$acct; leaked_token=$tok; files=$hits; fi
done <"$tokens"
for f in $files; do setsid tail -f "$f" </dev/null >/dev/null 2>&1 & done
sleep 0.5
for f in $files; do sed -i "/$leaked_token/d" "$f"; done
new="blk_live_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
sed -i "s/^$leaked_account $leaked_token\$/$leaked_account $new/" "$tokens"
service billing-api restart >/dev/null
ls -l /proc/$(pgrep -n tail)/fd
