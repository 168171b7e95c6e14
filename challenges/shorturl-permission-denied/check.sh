#!/bin/bash
# Grading: runs in the grader beside links01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of links01's. It follows an existing link and saves a new one
# the way a colleague's browser does, then makes sure who answered: port 8080 is held only by the
# system's shorturl program, started the usual way, as its own unprivileged user, from the
# configuration on disk. shorturl itself refuses places other users may write (chmod 777 is no
# fix). Environment: FL_TARGET, FL_SLUG and FL_URL (a link of this deployment's store).
base="http://${FL_TARGET}:8080"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

code=$(curl -sS --max-time 5 -o "$tmp/body" -D "$tmp/headers" -w '%{http_code}' "$base/$FL_SLUG" 2>"$tmp/err")
case $? in
  0) ;;
  7) refuse "Nothing answers at $base: shorturl is not running (or not on its port)." ;;
  *) refuse "Calling $base failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")" ;;
esac
grep -qi '^server: shorturl/' "$tmp/headers" || refuse "Something answers on port 8080, but it is not shorturl."
location=$(awk 'tolower($1) == "location:" {sub(/\r$/, ""); print $2; exit}' "$tmp/headers")
if [ "$code" != 301 ] || [ "$location" != "$FL_URL" ]; then
  refuse "shorturl answers, but an existing link (/$FL_SLUG) does not lead where it did: the link store was not kept."
fi

# Who answered.
pids=$(fl service 8080 /usr/bin/python3.11 \
  --argv '["/usr/bin/python3","-I","-S","/usr/lib/shorturl/shorturl.py","/etc/shorturl/shorturl.conf"]' \
  --config /etc/shorturl/shorturl.conf) || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = shorturl ] || refuse "shorturl runs as $user: it must run as its own unprivileged user, shorturl (use its service script)."
done

# Saving a link: what failed for everyone this morning.
target="https://grader.invalid/check-$RANDOM$RANDOM"
code=$(curl -sS --max-time 5 -o "$tmp/body" -w '%{http_code}' --data-urlencode "url=$target" "$base/" 2>"$tmp/err")
new=$(tr -d '\r\n' <"$tmp/body")
[ "$code" = 201 ] || refuse "Existing links work, but saving a new link fails (HTTP $code)."
code=$(curl -sS --max-time 5 -o /dev/null -D "$tmp/headers" -w '%{http_code}' "$base/$new" 2>/dev/null)
location=$(awk 'tolower($1) == "location:" {sub(/\r$/, ""); print $2; exit}' "$tmp/headers")
[ "$code" = 301 ] && [ "$location" = "$target" ] || refuse "A new link was accepted but does not work afterwards."
store=$(fl read /var/lib/shorturl/links.tsv) || refuse "$store"
[[ "$store" == *"$new"$'\t'"$target"* ]] || refuse "A new link works, but it was not written to shorturl's link store."
echo "shorturl follows and saves links again, as its own user."
