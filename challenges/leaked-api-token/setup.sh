#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): every
# account of billing-api gets a random token, the service starts, and one account's token is left
# in a file a support bundle collects: a user's shell history, an old debug log that recorded
# request headers, or a note in the team's runbooks (FAULTLINE_FAULT forces which), sometimes
# with a second copy in a scratch file. Which account, which user, which file names: random.
# Prints the values the check and the answer need as JSON on its last line.
set -euo pipefail
faults=(shell_history debug_log runbook_note)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
rnd() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }
service billing-api stop >/dev/null 2>&1 || true

accounts=(shop-frontend invoice-worker reports-etl partner-acme mobile-app)
declare -A token
{
  echo "# billing-api tokens: <account> <token>, read at start (restart after a change)."
  for a in "${accounts[@]}"; do token[$a]="blk_live_$(rnd 16)"; echo "$a ${token[$a]}"; done
} >/etc/billing-api/tokens
rnd 6 >/var/lib/billing-api/instance-id
chown billing:billing /var/lib/billing-api/instance-id
account=${accounts[RANDOM % ${#accounts[@]}]}
old=${token[$account]}
others=""
for a in "${accounts[@]}"; do [ "$a" = "$account" ] || others+="$a=${token[$a]} "; done

curl_line="curl -s -H \"Authorization: Bearer $old\" http://localhost:8080/v1/invoices"
case "$fault" in
  shell_history)
    user=$(shuf -n1 -e mara tobias root)
    home=$([ "$user" = root ] && echo /root || echo "/home/$user")
    leak=$home/.bash_history
    printf '%s\n' "service billing-api status" "tail -n 20 /var/log/billing-api/access.log" \
      "grep $account /etc/billing-api/tokens" "$curl_line | python3 -m json.tool" "history | tail" "exit" >"$leak"
    [ "$user" = root ] || chown "$user:$user" "$leak"
    chmod 0600 "$leak"
    ;;
  debug_log)
    leak=/var/log/billing-api/$(shuf -n1 -e debug.log.1 debug-old.log "debug-$(date -d '-3 day' +%Y%m%d).log")
    n=$((3 + RANDOM % 5)); t=$(($(date +%s) - 3 * 86400))
    for i in $(seq "$n"); do
      echo "$(date -d "@$((t + 60 * i))" +%Y-%m-%dT%H:%M:%S%z) DEBUG request GET /v1/invoices headers={'Host': 'billing01:8080', 'User-Agent': '$account/1.$((RANDOM % 9))', 'Authorization': 'Bearer $old', 'Accept': '*/*'}"
    done >"$leak"
    chmod 0644 "$leak"
    ;;
  runbook_note)
    leak=/srv/ops-notes/$(shuf -n1 -e billing-api-troubleshooting.md invoice-retries.md partner-onboarding.md)
    printf '# %s\n\nWhen invoices look stuck, check what the API returns for the account:\n\n```\n%s\n```\n\nIf it answers 401, the token was rotated: ask the on-call engineer.\n' \
      "$(basename "$leak" .md | tr '-' ' ')" "$curl_line" >"$leak"
    chmod 0644 "$leak"
    ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
# Sometimes the same request was also saved for replaying.
copy=""
if [ $((RANDOM % 2)) = 0 ]; then
  copy=/var/tmp/replay-$(rnd 3).sh
  printf '#!/bin/sh\n%s\n' "$curl_line" >"$copy"
fi
service billing-api start >/dev/null
# Every file a report could name as the leak's source: what a support bundle collects (shell
# histories, the service's logs, the runbooks, scratch files), the leak among them. The token file
# is not one: every token is there by design.
files=$( { ls -d /root/.bash_history /home/*/.bash_history; find /var/log/billing-api /srv/ops-notes /var/tmp -type f; } 2>/dev/null | python3 -I -S -c 'import json,sys; print(json.dumps(sys.stdin.read().split()))')
accounts_json=$(printf '"%s",' "${accounts[@]}")
printf '{"fault":"%s","account":"%s","leak":"%s","copy":"%s","old":"%s","others":"%s","instance":"%s","accounts":[%s],"files":%s}\n' \
  "$fault" "$account" "$leak" "$copy" "$old" "${others% }" "$(cat /var/lib/billing-api/instance-id)" "${accounts_json%,}" "$files"
