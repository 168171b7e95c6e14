#!/bin/bash
# Grading: runs in the grader beside shop01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of shop01's. redis's file is never parsed here: what redis makes
# of it is judged by its behaviour after a restart, the boot phase (a copy of shop01's disk,
# booted: redis and shopfront started from their init scripts and files).
#   - From another host of the network, as the scanner did: redis's port refuses the connection
#     or answers a command with a demand for a password (fl tcp: "closed" only on a refusal, a
#     timeout fails).
#   - Who holds that port: the system's redis-server, as user redis (no --config rule: CONFIG
#     SET then CONFIG REWRITE is an honest fix that changes the file after the start); nothing
#     else listens on shop01 (no front on another port or address, no raw socket).
#   - As a customer: shopfront (the system's program, its own user, started after the last change
#     of its file) reaches the cache. Live: with every session of this deployment and nothing the
#     attacker planted. After the boot the cache holds what redis kept on disk (a restart of a
#     pure cache may start empty): nothing the attacker planted, this deployment's data if any.
#   - When redis demands a password, the one shopfront uses (its file, read as it reads it) is
#     long enough to be one.
# Values go to fl as @NAME and URLs through `fetch`. Environment: FL_TARGET, FL_PORT, FL_INSTANCE,
# FL_SESSIONS, FL_PHASE.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { python3 -I -S -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], ""))' "$tmp/body" "$1" 2>/dev/null; }

# The attacker's side.
seen=$(fl tcp @TARGET @PORT --send 'PING\r\n') || refuse "$seen"
case "$seen" in
  closed) auth=no ;;
  "open -NOAUTH"* | "open -DENIED"*) auth=yes ;;
  "open +PONG") refuse "redis on $FL_TARGET:$FL_PORT still answers anyone on the network without a password." ;;
  *) refuse "Port $FL_PORT of $FL_TARGET accepts connections from the network and does not ask for a password (${seen#open })." ;;
esac

# Who holds redis's port: the system's redis-server, as redis (its title names its first address).
ip=$(getent hosts "$FL_TARGET" | awk '{print $1; exit}')
titles=()
for a in 127.0.0.1 ::1 -::1 localhost 0.0.0.0 '*' "$ip"; do
  titles+=(--argv "[\"/usr/bin/redis-server $a:@{PORT}\"]" --argv "[\"/usr/bin/redis-server $a:@{PORT} \"]")
done
# Debian's /usr/bin/redis-server is a link to redis-check-rdb, one program that acts by its name.
pids=$(fl service @PORT /usr/bin/redis-check-rdb "${titles[@]}") ||
  refuse "redis is not what serves the shop's cache on port $FL_PORT: $pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = redis ] || refuse "redis-server runs as $user; it must run as its own user, redis (use its service script)."
done
quiet=$(fl quiet-net @PORT 8080) || refuse "$quiet"

# The customer's side.
code=$(fetch "http://$FL_TARGET:8080/health" -sS --max-time 5 -o "$tmp/body" -w '%{http_code}' 2>/dev/null) || code=none
{ [ "$code" = 200 ] && [ "$(field redis)" = ok ]; } ||
  refuse "shopfront cannot use its cache any more (http://$FL_TARGET:8080/health answers HTTP $code): customers cannot log in."
who=$(fl service 8080 /usr/bin/python3.11 \
  --argv '["/usr/bin/python3","-I","-S","/usr/lib/shopfront/shopfront.py","/etc/shopfront/app.conf"]' \
  --config /etc/shopfront/app.conf) || refuse "$who"
for pid in $who; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = shopfront ] || refuse "shopfront runs as $user; it must run as its own user (use its service script)."
done
instance=$(field instance) sessions=$(field sessions) keys=$(field keys)
if [ "$FL_PHASE" = live ]; then
  { [ "$instance" = "$FL_INSTANCE" ] && [ "$sessions" = "$FL_SESSIONS" ]; } ||
    refuse "shopfront reaches a cache, but the customers' sessions are gone: everybody was logged out."
  [ "$keys" = "$((FL_SESSIONS + 1))" ] ||
    refuse "The cache still holds keys that are neither sessions nor the shop's own: what the attacker planted is still there."
else
  case "$instance" in "$FL_INSTANCE") own=1 ;; None) own=0 ;; *) refuse "shopfront reaches a cache that is not this shop's." ;; esac
  [[ "$keys" =~ ^[0-9]+$ && "$sessions" =~ ^[0-9]+$ ]] && [ "$keys" = "$((sessions + own))" ] ||
    refuse "The cache redis loads at start still holds keys that are neither sessions nor the shop's own: what the attacker planted comes back."
fi

if [ "$auth" = yes ]; then
  conf=$(fl read /etc/shopfront/app.conf) || refuse "The grader could not read shopfront's configuration: $conf"
  length=$(python3 -I -S -c '
import configparser, sys
conf = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
conf.read_string(sys.stdin.read())
print(len(conf.get("redis", "password", fallback="").strip()))' <<<"$conf" 2>/dev/null) || length=0
  [ "$length" -ge 12 ] || refuse "redis asks for a password, but the one shopfront uses is too short to keep anyone out: use at least 12 random characters."
fi
echo "redis on $FL_TARGET:$FL_PORT is closed to the network, stays closed after a restart, and the shop keeps its sessions."
