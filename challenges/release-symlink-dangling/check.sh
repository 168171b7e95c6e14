#!/bin/bash
# Grading: runs in the grader beside docs01 (docs/decisions/008-grading-threat-model.md), out of
# its reach, and executes nothing of docs01's. Both phases (live, and a booted copy of its disk):
#   what a reader sees: http://docs01/ from another host of the network (a reader's browser, as
#     far as anything there can tell) serves the release that was deployed;
#   who answers: port 80 is held only by the system's docsrv, started the usual way (before the
#     grader's call), as www-data, from its configuration as installed (a pinned site root would
#     hide the next deploy);
#   what the next deploy finds: /srv/docs/current is a link, and it leads (the way the kernel
#     resolves it on docs01) to the deployed release's own directory in /srv/docs/releases, not to
#     a copy; the release's page is as the deploy uploaded it.
# Environment: FL_TARGET, FL_RELEASE (the deployed release id), FL_DIGEST (its page's sha256).

url="http://${FL_TARGET}/"
asked=$EPOCHREALTIME
headers=$(mktemp)
trap 'rm -f "$headers"' EXIT
if ! body=$(fetch "$url" -sS --max-time 5 -D "$headers" 2>&1); then
  refuse "Nothing answers at $url (${body#curl: }). Is docsrv running?"
fi
read -r _ status _ <"$headers"
case "$status" in
  200) ;;
  503) refuse "$url answers 503: docsrv cannot use its site root. Look at where it points." ;;
  *) refuse "$url answers HTTP $status instead of 200." ;;
esac
[[ "$body" == *"<meta name=\"release\" content=\"$FL_RELEASE\">"* ]] ||
  refuse "$url serves a page, but not the release that was just deployed."

# One Python process with fl's functions (`fl py`, fl as `fl`) does the rest: each program
# start costs, on a busy host, more than the reading itself.
FL_ASKED=$asked fl py '
import hashlib, os, stat

conf = "/etc/docsrv/docsrv.conf"
pids = fl.verify_listener(80, "/usr/bin/python3.11", [["/usr/bin/python3", "-I", "-S", "/usr/lib/docsrv/docsrv.py", conf]], [conf])
for pid in pids:
    user = fl.user_name(fl.uid_of(pid))
    if user != "www-data":
        raise fl.Refused(f"docsrv runs as {user}; it must run as www-data (use its service script).")
    if fl.start_time(pid) > float(os.environ["FL_ASKED"]):
        raise fl.Refused("docsrv was started while the grader was calling it: whatever answered that call, it was not this process.")
try:
    fl.pristine(conf)
except fl.Refused:
    raise fl.Refused(f"{conf} was changed: docsrv must serve whatever the deploy tool'"'"'s link leads to, so that the next deploy shows.")

# The link, as the next deploy finds it.
import os, stat
base, release = "/srv/docs", os.environ["FL_RELEASE"]
gone = fl.Refused(f"The deployed release is no longer in {base}/releases: keep the releases where the deploy tool put them.")
fd, _ = fl.resolve(base, want_dir=True)
try:
    try:
        current = os.stat("current", dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        raise fl.Refused(f"{base}/current is missing: docsrv serves what that link leads to.")
    if not stat.S_ISLNK(current.st_mode):
        raise fl.Refused(f"{base}/current is not a link any more: the deploy tool switches releases by replacing that link.")
    try:
        rfd = os.open("releases", os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=fd)
    except OSError:
        raise gone
    try:
        own = os.stat(release, dir_fd=rfd, follow_symlinks=False)
    except FileNotFoundError:
        raise gone
    finally:
        os.close(rfd)
finally:
    os.close(fd)
if not stat.S_ISDIR(own.st_mode):
    raise gone
try:
    live = fl.stat_path(f"{base}/current", want_dir=True)
except (OSError, NotADirectoryError):
    raise fl.Refused(f"{base}/current does not lead to a directory.")
if (live.st_dev, live.st_ino) != (own.st_dev, own.st_ino):
    raise fl.Refused(f"{base}/current does not lead to the deployed release'"'"'s own directory in {base}/releases (a copy or another release is not what the next deploy expects).")
fd, _ = fl.resolve(f"{base}/releases/{release}/index.html")
try:
    h = hashlib.sha256()
    for chunk in fl.stream(fd):
        h.update(chunk)
finally:
    os.close(fd)
if h.hexdigest() != os.environ["FL_DIGEST"]:
    raise fl.Refused("The deployed release'"'"'s pages were changed: serve the release as it was uploaded.")
print("docs01 serves the deployed release again through /srv/docs/current.")
'
