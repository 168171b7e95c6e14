#!/bin/bash
# Grading: runs in the grader beside docs01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of docs01's. It asks:
#   what a reader sees: http://docs01/ from another host serves the release that was deployed;
#   who answers: port 80 is held only by the system's docsrv, started the usual way, as www-data,
#     from the configuration on disk;
#   what was repaired: /srv/docs/current leads to that release's own directory (not a copy, not an
#     old release dressed up), whose page is as the deploy uploaded it.
# Environment: FL_TARGET, FL_RELEASE (the deployed release id), FL_DIGEST (its page's sha256).
url="http://${FL_TARGET}/"
headers=$(mktemp)
trap 'rm -f "$headers"' EXIT
if ! body=$(curl -sS --max-time 5 -D "$headers" "$url" 2>&1); then
  refuse "Nothing answers at $url (${body#curl: }). Is docsrv running?"
fi
status=$(awk 'NR==1{print $2}' "$headers")
case "$status" in
  200) ;;
  503) refuse "$url answers 503: docsrv cannot use its site root. Look at where it points." ;;
  *) refuse "$url answers HTTP $status instead of 200." ;;
esac
[[ "$body" == *"<meta name=\"release\" content=\"$FL_RELEASE\">"* ]] ||
  refuse "$url serves a page, but not the release that was just deployed."

who=$(fl service 80 /usr/bin/python3.11 \
  --argv '["/usr/bin/python3","-I","-S","/usr/lib/docsrv/docsrv.py","/etc/docsrv/docsrv.conf"]' \
  --config /etc/docsrv/docsrv.conf) || refuse "$who"
for pid in $who; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = www-data ] || refuse "docsrv runs as $user; it must run as www-data (use its service script)."
done

# The live link must lead to the release's own directory: one directory seen two ways has one
# change time; a copy or a renamed directory does not.
live=$(fl ctime /srv/docs/current) || refuse "/srv/docs/current does not lead to a directory."
own=$(fl ctime "/srv/docs/releases/$FL_RELEASE" 2>/dev/null) ||
  refuse "The deployed release is no longer in /srv/docs/releases: keep the releases where the deploy tool put them."
[ "$live" = "$own" ] ||
  refuse "/srv/docs/current is not the deployed release's directory in /srv/docs/releases (a copy is not what the next deploy expects)."
digest=$(fl sha256 "/srv/docs/releases/$FL_RELEASE/index.html") || refuse "$digest"
[ "$digest" = "$FL_DIGEST" ] || refuse "The deployed release's pages were changed: serve the release as it was uploaded."
echo "docs01 serves the deployed release again through /srv/docs/current."
