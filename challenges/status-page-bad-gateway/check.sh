#!/bin/bash
# Grading: runs in the grader beside status01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of status01's. The same questions live and after a boot of a copy:
#   what a customer sees: http://status01/ from another host serves this deployment's status page;
#   who answers: port 80 is held only by the system's nginx, started the usual way after the last
#     change of its configuration, and the application's port only by the system's statuspage
#     program, as its own user, on the loopback address (other hosts are refused there);
#   what was repaired: the application's configuration as the application reads it (Python's
#     configparser, its own options) is its own apart from its address and port; nginx's site,
#     token for token as nginx reads it, is its own apart from the port it proxies to, which is
#     the application's; both stay root's alone to change (mode bits and ACLs).
# The inspection runs in one Python process over fl's functions (one start instead of a dozen).
# Environment: FL_TARGET, FL_INSTANCE (chosen by setup.sh). Exit 0 = fixed; stdout = feedback.
url="http://${FL_TARGET}/"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
code=$(fetch "$url" -sS --max-time 6 -o "$tmp/body" -w '%{http_code}' 2>"$tmp/err")
case $? in
  0) ;;
  7) refuse "Nothing accepts connections on port 80 of $FL_TARGET: customers get \"connection refused\". Is nginx running?" ;;
  28) refuse "$url did not answer in time." ;;
  *) refuse "Calling $url failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")" ;;
esac
case $code in
  200) ;;
  502) refuse "nginx answers $url with 502 Bad Gateway: it cannot reach the status page application behind it." ;;
  504) refuse "nginx answers $url with 504 Gateway Timeout: the application behind it does not answer." ;;
  *) refuse "$url answers with HTTP $code instead of the status page." ;;
esac
page=$(cat "$tmp/body")
[[ "$page" == *"content=\"$FL_INSTANCE\""* ]] || refuse "Something answers at $url, but not with this host's status page application."

cat >"$tmp/judge.py" <<'PY'
import configparser, os, sys
ns = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "fl.py", "exec"), ns)
Refused = ns["Refused"]
APP_CONF, SITE = "/etc/statuspage/statuspage.conf", "/etc/nginx/sites-available/statuspage"
NGINX_CONF = ["/etc/nginx", "/etc/nginx/nginx.conf", "/etc/nginx/mime.types", "/etc/nginx/proxy_params", "/etc/nginx/sites-available",
              SITE, "/etc/nginx/sites-enabled", "/etc/nginx/conf.d", "/etc/nginx/modules-enabled"]
NGINX_ARGVS = [["nginx: master process /usr/sbin/nginx"], ["nginx: master process nginx"], ["nginx: worker process"]]
APP_ARGV = ["/usr/bin/python3", "-I", "-S", "/usr/lib/statuspage/statuspage.py", APP_CONF]


def parsed(text):
    """statuspage.py's own parser and options: {section: {key: value}}."""
    conf = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
    conf.read_string(text)
    return {s: {k: conf.get(s, k) for k in conf.options(s)} for s in conf.sections()}


def main():
    # Who answers on port 80: nginx's master and workers, and nothing else.
    ns["verify_listener"](80, "/usr/sbin/nginx", NGINX_ARGVS, NGINX_CONF)

    # The application's configuration, read the way statuspage reads it: its own but for the
    # address and port, and the port it really uses.
    try:
        theirs = parsed(ns["read_file"](APP_CONF).decode("utf-8"))
    except (configparser.Error, UnicodeDecodeError) as e:
        raise Refused(f"{APP_CONF} does not read as statuspage reads it ({type(e).__name__}): statuspage cannot start from it.")
    mine = parsed(open(APP_CONF, encoding="utf-8").read())
    server = theirs.get("server", {})
    bind, port = server.get("bind", "127.0.0.1").strip(), server.get("port", "8080").strip()
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise Refused(f"{APP_CONF} does not give statuspage a valid port.")
    port = int(port)
    if bind not in ("127.0.0.1", "localhost"):
        raise Refused(f'statuspage is configured to listen on "{bind}": it is only for nginx and must listen on the loopback address, as before.')
    for conf in (theirs, mine):
        conf.get("server", {}).pop("bind", None)
        conf.get("server", {}).pop("port", None)
    if theirs != mine:
        raise Refused(f"{APP_CONF} is not the application's own configuration any more: only its address and port are the application's to choose.")

    # The application: the system's program on that port, as its own user, on the loopback only.
    for pid in ns["verify_listener"](port, "/usr/bin/python3.11", [APP_ARGV], ["/etc/statuspage", APP_CONF]):
        user = ns["user_name"](ns["uid_of"](pid))
        if user != "status":
            raise Refused(f"statuspage runs as {user}; it must run as its own user, status (use its service script).")
    for addr, _, _ in ns["listeners"](port):
        if addr != "127.0.0.1":
            raise Refused(f"statuspage listens on {addr}:{port}: it must only listen on the loopback address.")
    if ns["tcp"](os.environ["FL_TARGET"], port) != "closed":
        raise Refused(f"The application's port {port} answers other hosts directly: it must only be reachable through nginx.")

    # nginx: its configuration as installed, and the status page's site as nginx reads it,
    # proxying to the application's port.
    for path in ("/etc/nginx/nginx.conf", "/etc/nginx/mime.types", "/etc/nginx/proxy_params", "/etc/nginx/conf.d",
                 "/etc/nginx/modules-enabled", "/etc/nginx/sites-enabled", "/etc/init.d/nginx", "/etc/default/nginx",
                 "/etc/init.d", "/etc/rc.local", *(f"/etc/rc{r}.d" for r in "0123456S")):
        ns["pristine"](path)
    site = ns["normalized"](SITE, "nginx")
    want = ns["normalized"](SITE, "nginx", image=True).replace("proxy_pass http://127.0.0.1:8080 ;", f"proxy_pass http://127.0.0.1:{port} ;")
    if site != want:
        raise Refused(f"The page is served, but the status page's nginx site is not its own configuration any more, proxying to the application on 127.0.0.1:{port}: repair the fault rather than replacing the site.")
    # Both programs' configurations stay root's alone to change: the file and every directory
    # above it (links resolved), owner, mode bits and ACLs.
    for path in (SITE, APP_CONF):
        ns["only_root_may_change"](path, "nobody else may rewrite what nginx and statuspage run.")
    print(port)


# A refusal, or a file missing or unreadable: its one line, exit 1 (fl run_judgement).
sys.exit(ns["run_judgement"](main))
PY
port=$(python3 -I -S "$tmp/judge.py") || refuse "${port:-The grader could not judge status01 (an error of its own): not graded.}"
echo "Customers get the status page at $url again: nginx proxies to statuspage on 127.0.0.1:$port."
