#!/bin/bash
# Grading: runs in the grader beside web01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of web01's. The same questions live and after a boot of a copy:
#   what a customer sees: http://web01/ from another host serves this deployment's shop page;
#   who answers: port 80 is held only by the system's /usr/sbin/nginx, started the usual way,
#     after the last change of every file and directory of its configuration;
#   what was repaired: nginx's configuration and the boot's scripts as installed, the shop's site token for token as
#     nginx reads it (a '#' only starts a comment where a token starts), root's alone to change
#     (the file and every directory above it: owner, mode bits and ACLs).
# The inspection runs in one Python process over fl's functions (one start instead of many).
# Environment: FL_TARGET, FL_BUILD (the page's build id, chosen by setup.sh). Exit 0 = fixed.
url="http://${FL_TARGET}/"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
code=$(fetch "$url" -sS --max-time 5 -o "$tmp/body" -w '%{http_code}' 2>"$tmp/err")
case $? in
  0) ;;
  7) refuse "Nothing answers at $url yet (connection refused). Is nginx running?" ;;
  28) refuse "$url did not answer in time." ;;
  *) refuse "Calling $url failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")" ;;
esac
[ "$code" = 200 ] || refuse "$url answers with HTTP $code instead of 200: the shop's page is not served."
page=$(cat "$tmp/body")
[[ "$page" == *"$FL_BUILD"* ]] || refuse "Something answers at $url, but not with the shop's page from /srv/www/shop."

cat >"$tmp/judge.py" <<'PY'
import os, re, sys
ns = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "fl.py", "exec"), ns)
Refused = ns["Refused"]
SITE, SNIPPET = "/etc/nginx/sites-available/shop", "/etc/nginx/snippets/shop-cache.conf"
# Everything nginx reads at start, and the directories they live in: a file swapped in for the
# start and put back changes its directory.
CONFIG = ["/etc/nginx", "/etc/nginx/nginx.conf", "/etc/nginx/mime.types", "/etc/nginx/sites-available", SITE,
          "/etc/nginx/sites-enabled", "/etc/nginx/conf.d", "/etc/nginx/modules-enabled", "/etc/nginx/snippets", SNIPPET]
ARGVS = [["nginx: master process /usr/sbin/nginx"], ["nginx: master process nginx"], ["nginx: worker process"]]
# The boot's own scripts too: one of the player's could put a broken site back minutes after a
# boot, later than the check of the booted copy.
AS_INSTALLED = ["/etc/nginx/nginx.conf", "/etc/nginx/mime.types", "/etc/nginx/conf.d", "/etc/nginx/modules-enabled",
                "/etc/nginx/sites-enabled", "/etc/init.d", "/etc/default/nginx", "/etc/rc.local",
                *(f"/etc/rc{r}.d" for r in "0123456S")]
# What the snippet the site asks for may hold: caching, nothing else.
CACHING = re.compile(r"( ?(expires|etag|add_header [A-Za-z-]+) [^;{}\"'$]* ;)* ?")


def root_alone(path):
    """Only root may change `path`: the file and every directory above it (links resolved) are
    root's, writable by nobody else, with no ACL."""
    ns["only_root_may_change"](path, "nginx runs it as root, so nobody else may write it or its directories.")


def main():
    ns["verify_listener"](80, "/usr/sbin/nginx", ARGVS, CONFIG)
    for path in AS_INSTALLED:
        ns["pristine"](path)
    site = ns["normalized"](SITE, "nginx")
    original = ns["normalized"](SITE, "nginx", image=True)
    uses_snippet = False
    if site != original:
        # Giving the site the snippet it asks for is a repair too, if the snippet only sets caching.
        with_snippet = original.replace("index index.html ;", f"index index.html ; include {SNIPPET} ;")
        try:
            snippet = ns["normalized"](SNIPPET, "nginx")
        except FileNotFoundError:
            snippet = "missing"
        if site != with_snippet or not CACHING.fullmatch(snippet):
            raise Refused("nginx serves the page, but the shop's site configuration is not the shop's own any more: repair the fault in it rather than replacing it.")
        uses_snippet = True
    root_alone(SITE)
    if uses_snippet:
        root_alone(SNIPPET)


# A refusal, or a file missing or unreadable: its one line, exit 1 (fl run_judgement).
sys.exit(ns["run_judgement"](main))
PY
verdict=$(python3 -I -S "$tmp/judge.py") || refuse "${verdict:-The grader could not judge web01 (an error of its own): not graded.}"
echo "nginx is up and serves the shop at $url."
