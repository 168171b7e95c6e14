#!/bin/bash
# Grading: runs in the grader beside shop01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of shop01's. From another host of the network (the attacker's
# side): redis's port must refuse the connection or demand a password. From the side (fl): that
# port is held by the system's redis-server as user redis, and its configuration file keeps it
# that way after a restart. As a customer: shopfront (the system's program, its own user) still
# reaches the cache, with every session of this deployment and nothing the attacker planted.
# Environment: FL_TARGET, FL_PORT, FL_INSTANCE, FL_SESSIONS.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { python3 -I -S -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], ""))' "$tmp/body" "$1" 2>/dev/null; }

# Who holds redis's port: the system's redis-server, as redis (its title names its first address).
ip=$(getent hosts "$FL_TARGET" | awk '{print $1; exit}')
titles=()
for a in 127.0.0.1 ::1 localhost 0.0.0.0 '*' "$ip"; do
  titles+=(--argv "[\"/usr/bin/redis-server $a:$FL_PORT\"]" --argv "[\"/usr/bin/redis-server $a:$FL_PORT \"]")
done
# Debian's /usr/bin/redis-server is a link to redis-check-rdb, one program that acts by its name.
pids=$(fl service "$FL_PORT" /usr/bin/redis-check-rdb "${titles[@]}") ||
  refuse "redis is not what serves the shop's cache on port $FL_PORT: $pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = redis ] || refuse "redis-server runs as $user; it must run as its own user, redis (use its service script)."
done

# The attacker's side.
if nc -z -w 3 "$FL_TARGET" "$FL_PORT" 2>/dev/null; then
  answer=$(printf 'PING\r\nQUIT\r\n' | nc -w 3 "$FL_TARGET" "$FL_PORT" 2>/dev/null | head -1 | tr -d '\r')
  case "$answer" in
    -NOAUTH*|-DENIED*|"-ERR"*"AUTH"*) ;;
    +PONG) refuse "redis on $FL_TARGET:$FL_PORT still answers anyone on the network without a password." ;;
    *) refuse "Port $FL_PORT of $FL_TARGET accepts connections from the network and does not ask for a password (${answer:-no answer})." ;;
  esac
fi

# After the next restart: the file must keep it closed (loopback-only bind, a real password, or
# protected mode left on).
raw=$(fl read /etc/redis/redis.conf) || refuse "The grader could not read /etc/redis/redis.conf: $raw"
conf=$(sed 's/#.*//' <<<"$raw")
bind=$(awk '$1 == "bind" {$1 = ""; b = $0} END {print b}' <<<"$conf")
pass=$(awk '$1 == "requirepass" {p = $2} END {print p}' <<<"$conf" | tr -d '"')
protected=$(awk '$1 == "protected-mode" {p = $2} END {print p}' <<<"$conf" | tr -d '"')
local_only=no
if [ -n "${bind// }" ]; then
  local_only=yes
  for a in $bind; do case "$a" in 127.*|-127.*|::1|-::1|localhost) ;; *) local_only=no ;; esac; done
fi
# Protected mode (the default) turns away every client but loopback's while there is no password.
if [ "$local_only" != yes ] && [ "${#pass}" -lt 12 ] && [ "$protected" = no ]; then
  refuse "redis is closed now, but /etc/redis/redis.conf would open it to the network again at its next restart."
fi

# The customer's side.
code=$(curl -sS --max-time 5 -o "$tmp/body" -w '%{http_code}' "http://$FL_TARGET:8080/health" 2>/dev/null) || code=none
[ "$code" = 200 ] && [ "$(field redis)" = ok ] ||
  refuse "shopfront cannot use its cache any more (http://$FL_TARGET:8080/health answers HTTP $code): customers cannot log in."
who=$(fl service 8080 /usr/bin/python3.11 \
  --argv '["/usr/bin/python3","-I","-S","/usr/lib/shopfront/shopfront.py","/etc/shopfront/app.conf"]' \
  --config /etc/shopfront/app.conf) || refuse "$who"
for pid in $who; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = shopfront ] || refuse "shopfront runs as $user; it must run as its own user (use its service script)."
done
[ "$(field instance)" = "$FL_INSTANCE" ] && [ "$(field sessions)" = "$FL_SESSIONS" ] ||
  refuse "shopfront reaches a cache, but the customers' sessions are gone: everybody was logged out."
[ "$(field keys)" = "$((FL_SESSIONS + 1))" ] ||
  refuse "The cache still holds keys that are neither sessions nor the shop's own: what the attacker planted is still there."
echo "redis on $FL_TARGET:$FL_PORT is closed to the network, stays closed after a restart, and the shop keeps its sessions."
