#!/bin/bash
# Grading: runs in the grader beside links01 (docs/decisions/008-grading-threat-model.md), out of
# its reach, and executes nothing of links01's. Both phases (live, and a booted copy of its disk,
# where shorturl must start from what is on disk):
#   what a colleague sees, from another host: an existing link redirects where it did, a new link
#     is saved and redirects, and it lands in shorturl's link store;
#   who answered: port 8080 is held only by the system's shorturl program, started the usual way
#     (before the first of those calls), as its own unprivileged user, from its configuration as
#     installed;
#   it keeps working: shorturl's user can still open every place it uses (so it starts again
#     tomorrow), and no other account can write them (a link store anyone can rewrite is an open
#     redirector): what the kernel decides, mode bits, ACLs and every directory on the way.
# Environment: FL_TARGET, FL_SLUG and FL_URL (a link of this deployment's store).
base="http://${FL_TARGET}:8080"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
asked=$EPOCHREALTIME

code=$(fetch "$base/$FL_SLUG" -sS --max-time 5 -o "$tmp/body" -D "$tmp/headers" -w '%{http_code}' 2>"$tmp/err")
case $? in
  0) ;;
  7) refuse "Nothing answers at $base: shorturl is not running (or not on its port)." ;;
  *) refuse "Calling $base failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")" ;;
esac
headers=$(<"$tmp/headers")
[[ "${headers,,}" == *$'\n'"server: shorturl/"* ]] || refuse "Something answers on port 8080, but it is not shorturl."
[[ "$headers" =~ [Ll]ocation:\ ([^$'\r\n']*) ]] && location=${BASH_REMATCH[1]} || location=""
if [ "$code" != 301 ] || [ "$location" != "$FL_URL" ]; then
  refuse "shorturl answers, but an existing link (/$FL_SLUG) does not lead where it did: the link store was not kept."
fi

# Saving a link: what failed for everyone this morning.
target="https://grader.invalid/check-$SRANDOM$SRANDOM"
code=$(fetch "$base/" -sS --max-time 5 -o "$tmp/body" -w '%{http_code}' --data-urlencode "url=$target" 2>"$tmp/err")
new=$(<"$tmp/body")
new=${new//[$'\r\n']/}
[ "$code" = 201 ] || refuse "Existing links work, but saving a new link fails (HTTP $code)."
code=$(fetch "$base/$new" -sS --max-time 5 -o /dev/null -D "$tmp/headers" -w '%{http_code}' 2>/dev/null)
headers=$(<"$tmp/headers")
[[ "$headers" =~ [Ll]ocation:\ ([^$'\r\n']*) ]] && location=${BASH_REMATCH[1]} || location=""
[ "$code" = 301 ] && [ "$location" = "$target" ] || refuse "A new link was accepted but does not work afterwards."

# One Python process with fl's functions (`fl py`, fl as `fl`) does the rest: each program
# start costs, on a busy host, more than the reading itself.
FL_ASKED=$asked FL_NEW="$new"$'\t'"$target" fl py '
import os

conf = "/etc/shorturl/shorturl.conf"
pids = fl.verify_listener(8080, "/usr/bin/python3.11",
    [["/usr/bin/python3", "-I", "-S", "/usr/lib/shorturl/shorturl.py", conf]], [conf])
for pid in pids:
    user = fl.user_name(fl.uid_of(pid))
    if user != "shorturl":
        raise fl.Refused(f"shorturl runs as {user}: it must run as its own unprivileged user, shorturl (use its service script).")
    if fl.start_time(pid) > float(os.environ["FL_ASKED"]):
        raise fl.Refused("shorturl was started while the grader was calling it: whatever answered those calls, it was not this process.")
try:
    fl.pristine(conf)
except fl.Refused:
    raise fl.Refused(f"{conf} was changed: shorturl must use its own places, as installed. Give them back to its user instead.")

# What shorturl needs at its next start, and what nobody else may write.
store, run, logs = "/var/lib/shorturl/links.tsv", "/run/shorturl", "/var/log/shorturl/shorturl.log"
for path, need in ((store, "rw"), (run, "wx"), (logs, "w")):
    try:
        can = fl.access("shorturl", path)
    except FileNotFoundError:
        raise fl.Refused(f"{path} is missing: shorturl needs it to start.")
    if not set(need) <= set(can):
        raise fl.Refused(f"shorturl runs now, but its user can no longer use {path} as it must ({need}): it would fail at its next start.")
users = fl._passwd()
# Its places and every directory on the way to them (whoever can write a directory can replace
# what is in it).
for path in ("/var", "/var/lib", "/var/lib/shorturl", store, "/run", run, "/var/log", "/var/log/shorturl", logs):
    for other in users:
        if other not in ("root", "shorturl") and "w" in fl.access(other, path):
            raise fl.Refused(f"{other} can write {path}: only shorturl may (a link store others can rewrite is an open redirector). Give it back to its owner instead.")

new = os.environ["FL_NEW"].encode()
if new + b"\n" not in fl.read_file(store):
    raise fl.Refused("A new link works, but it was not written to shorturl'"'"'s link store.")
print("shorturl follows and saves links again, as its own user, and nobody else can rewrite its links.")
'
