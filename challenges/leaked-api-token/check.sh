#!/bin/bash
# Grading: runs in the grader beside billing01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of billing01's. It calls billing-api from another host of the
# network as its clients do, after making sure who answers (the system's program, started by its
# service script as its own user, after the last change of its token file): the leaked token must
# be refused, the account must have a new token that works, every other client's token must still
# work, and the leaked token must be written nowhere on billing01 any more. Tokens never go into a
# command's arguments (the player sees the grader's command lines): headers go through a file.
# Environment: FL_TARGET, FL_ACCOUNT, FL_LEAK, FL_OLD, FL_OTHERS, FL_INSTANCE, FL_SUBMISSION.
base="http://${FL_TARGET}:8080"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# call PATH [TOKEN]: sets code; the body is in $tmp/body.
call() {
  if [ -n "${2:-}" ]; then printf 'Authorization: Bearer %s\n' "$2" >"$tmp/h"; else : >"$tmp/h"; fi
  code=$(curl -sS --max-time 5 -H @"$tmp/h" -o "$tmp/body" -w '%{http_code}' "$base$1" 2>"$tmp/err") || code=none
}
field() { python3 -I -S -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], ""))' "$tmp/body" "$1" 2>/dev/null; }

call /health
[ "$code" = 200 ] || refuse "billing-api does not answer at $base/health (HTTP $code): its clients cannot work."
[ "$(field instance)" = "$FL_INSTANCE" ] || refuse "Something answers on port 8080 of $FL_TARGET, but it is not this host's billing-api."

pids=$(fl service 8080 /usr/bin/python3.11 \
  --argv '["/usr/bin/python3","-I","-S","/usr/lib/billing-api/billing_api.py","/etc/billing-api/tokens"]' \
  --config /etc/billing-api/tokens) || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = billing ] || refuse "billing-api runs as $user; it must run as its own user, billing (use its service script)."
done

call /v1/whoami "$FL_OLD"
[ "$code" = 401 ] || refuse "The leaked token is still accepted by billing-api: whoever found it can still use it."

# The account's new token: in the token file, and accepted.
tokens=$(fl read /etc/billing-api/tokens) || refuse "The grader could not read /etc/billing-api/tokens: $tokens"
fresh=""
while read -r acct tok _; do
  [ "$acct" = "$FL_ACCOUNT" ] && [ -n "$tok" ] && [ "$tok" != "$FL_OLD" ] && { fresh=$tok; break; }
done <<<"$tokens"
[ -n "$fresh" ] || refuse "The leaked token no longer works, but its account has no new token in /etc/billing-api/tokens: the client it belongs to is locked out."
call /v1/whoami "$fresh"
[ "$code" = 200 ] && [ "$(field account)" = "$FL_ACCOUNT" ] || refuse "The new token in /etc/billing-api/tokens is not accepted by the running billing-api (HTTP $code)."
[ "${#fresh}" -ge 24 ] || refuse "The new token is too short to be a secret: use at least 24 random characters."

for pair in $FL_OTHERS; do
  call /v1/whoami "${pair#*=}"
  [ "$code" = 200 ] && [ "$(field account)" = "${pair%%=*}" ] || refuse "The token of ${pair%%=*} no longer works: only the leaked one had to change."
done

# The leaked token, written anywhere in billing01's writable directories.
found=$(FL_NEEDLE=$FL_OLD python3 -I -S - <<'PY'
import os, stat, sys
sys.path.insert(0, "/tmp")
import fl
needle = os.environ["FL_NEEDLE"].encode()
budget = 300000
def walk(fd):
    global budget
    for name in os.listdir(fd):
        budget -= 1
        if budget < 0:
            raise fl.Refused("There are too many files for the grader to look at.")
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            continue
        if stat.S_ISDIR(st.st_mode):
            try:
                sub = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=fd)
            except OSError:
                continue
            try:
                if walk(sub):
                    return True
            finally:
                os.close(sub)
        elif stat.S_ISREG(st.st_mode) and 0 < st.st_size <= fl.MAX_READ:
            try:
                f = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
            except OSError:
                continue
            try:
                data = os.read(f, fl.MAX_READ + 1)
            finally:
                os.close(f)
            if needle in data:
                return True
    return False
try:
    for top in ("/etc", "/var", "/root", "/home", "/tmp", "/run", "/srv", "/opt", "/usr/local"):
        try:
            fd, _ = fl.resolve(top, want_dir=True)
        except (FileNotFoundError, NotADirectoryError):
            continue
        try:
            if walk(fd):
                print("found")
                break
        finally:
            os.close(fd)
    else:
        print("clean")
except fl.Refused as e:
    print(e)
PY
)
case "$found" in
  clean) ;;
  found) refuse "The old token is rotated, but it is still written in a file on billing01: remove every copy." ;;
  *) refuse "${found:-The grader could not search the files of billing01.}" ;;
esac

# Naming every account is not an answer (one other may come up in passing: "reporting" is a
# plain word too).
others=0
for a in shop-frontend invoice-worker reporting partner-acme mobile-app; do
  [ "$a" != "$FL_ACCOUNT" ] && answer_mentions "$a" && others=$((others + 1))
done
[ "$others" -lt 2 ] || refuse "billing01 is clean, but your report also names accounts whose tokens did not leak: name only the one that did."
answer_mentions "$FL_ACCOUNT" || refuse "billing01 is clean, but your report does not name the account whose token leaked."
answer_mentions "$FL_LEAK" || answer_mentions "${FL_LEAK##*/}" || refuse "billing01 is clean, but your report does not name the file the token leaked from."
echo "The leaked token is dead and gone from billing01, its account has a new one, and every other client still works."
