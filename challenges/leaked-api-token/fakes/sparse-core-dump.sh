#!/bin/bash
# Fake: rotate and clean up as the reference does, but keep a 5 MiB sparse "core dump" of the old
# billing-api in /var/tmp with the leaked token past the first 4 MiB, beyond a search that reads
# only the beginning of big files.
set -u
# The reference fix (solution.sh): find the leaked token, remove its copies, rotate, restart.
fix() {
  tokens=/etc/billing-api/tokens
  while read -r acct tok; do
    case "$acct" in ''|'#'*) continue ;; esac
    hits=$(grep -rlF -- "$tok" /etc /var /root /home /tmp /srv /opt /usr/local 2>/dev/null | grep -vx "$tokens")
    if [ -n "$hits" ]; then leaked_account=$acct; leaked_token=$tok; files=$hits; fi
  done <"$tokens"
  for f in $files; do sed -i "/$leaked_token/d" "$f"; done
  new="blk_live_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  sed -i "s/^$leaked_account $leaked_token\$/$leaked_account $new/" "$tokens"
  service billing-api restart >/dev/null
}
fix
python3 - "$leaked_token" <<'PY'
import sys
with open("/var/tmp/core.billing-api.1841", "wb") as f:
    f.truncate(5 * 1024 * 1024)
    f.seek(4 * 1024 * 1024 + 4096)
    f.write(b"Authorization: Bearer " + sys.argv[1].encode() + b"\r\n")
PY
ls -ls /var/tmp/core.billing-api.1841
