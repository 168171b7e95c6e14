#!/bin/bash
# Fake: fix owners and modes, and take the live provider key out of the readable places by turning
# it into a comment in the gateway's own file (where a search for the key still finds it) while
# the setting the gateway reads gets a placeholder; restart so the gateway "works".
set -u
# The reference fix (solution.sh): every file holding a secret, the gateway's own root:payments
# 0640, the copies removed.
fix() {
  conf=/etc/payments-gw/credentials.ini; key=/etc/payments-gw/tls/key.pem
  api_key=$(sed -n 's/^api_key *= *//p' "$conf")
  key_line=$(sed -n 2p "$key")
  for f in $( { grep -rlF -- "$api_key" /etc /var /root /home /tmp /srv /opt /usr/local; grep -rlF -- "$key_line" /etc /var /root /home /tmp /srv /opt /usr/local; } 2>/dev/null | sort -u); do
    case "$f" in
      "$conf"|"$key") chown root:payments "$f"; chmod 0640 "$f" ;;
      *) rm -f "$f" ;;
    esac
  done
  chown root:payments /etc/payments-gw/tls; chmod 0750 /etc/payments-gw/tls
}
fix
sed -i 's/^api_key *= *\(.*\)$/# api_key = \1\napi_key = ROTATE-ME/' /etc/payments-gw/credentials.ini
service payments-gw restart
grep api_key /etc/payments-gw/credentials.ini | cut -c1-30
