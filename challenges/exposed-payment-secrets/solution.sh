#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: take the
# gateway's secrets (its provider key, the TLS key) and look for every file on the host that holds
# them, with its owner and mode; a copy outside /etc/payments-gw goes, the gateway's own files
# become root:payments 0640 (its directories root:payments, no access for others).
set -uo pipefail
conf=/etc/payments-gw/credentials.ini
key=/etc/payments-gw/tls/key.pem
ls -la /etc/payments-gw /etc/payments-gw/tls
api_key=$(sed -n 's/^api_key *= *//p' "$conf")
key_line=$(sed -n 2p "$key")
answer=""
for f in $( { grep -rlF -- "$api_key" /etc /var /root /home /tmp /srv /opt /usr/local; grep -rlF -- "$key_line" /etc /var /root /home /tmp /srv /opt /usr/local; } 2>/dev/null | sort -u); do
  perm=$(stat -c '%U:%G %a' "$f"); echo "$f $perm"
  case "$f" in
    "$conf"|"$key")
      if [ "$perm" != "root:payments 640" ]; then answer+="$f "; fi
      chown root:payments "$f"; chmod 0640 "$f" ;;
    *) answer+="$f "; rm -f "$f" ;;
  esac
done
chown root:payments /etc/payments-gw/tls; chmod 0750 /etc/payments-gw/tls
[ -n "$answer" ] || { echo "no exposed secret found"; exit 1; }
curl -s http://localhost:8443/health
echo "ANSWER: The gateway's secrets were exposed through ${answer% }; fixed the owner and mode (or removed the copy)."
