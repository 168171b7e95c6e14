#!/bin/bash
# Grading: runs in the grader beside inv01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of inv01's. The same questions live and after a boot of a copy:
#   what the clients see: inventory-api answers http://inv01:8080 from another host of the internal
#     network (the grader calls from an address picked at random), with this deployment's data;
#   who answers: port 8080 is held only by the system's inventory-api program, started the usual
#     way as its own user, on every address, after the last change of its configuration;
#   whom it admits: its allow list, read the way inventory-api reads it (Python's configparser
#     with its options, then ipaddress), admits every address of the internal network, not only
#     the ones a check happens to call from.
# Environment: FL_TARGET, FL_INSTANCE, FL_SKU, FL_QTY, FL_NET (the internal network) from setup.sh.
# Exit 0 = fixed; stdout = feedback.
base="http://${FL_TARGET}:8080"
me=$(hostname -i 2>/dev/null | awk '{print $1}')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Whom the service admits, as it decides: every address of the internal network, and the grader?
cat >"$tmp/conf.py" <<'PY'
import configparser, ipaddress, os
ns = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "fl.py", "exec"), ns)
PATH = "/etc/inventory-api/api.conf"
try:
    conf = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
    conf.read_string(ns["read_file"](PATH).decode("utf-8"))
    raw = conf.get("server", "allowed_networks", fallback="").strip()
    allowed = [ipaddress.ip_network(n.strip(), strict=False) for n in raw.split(",") if n.strip()]
except Exception as e:  # what inventory-api would die of at start
    print(f"refuse {PATH} does not read as inventory-api reads it ({type(e).__name__}): the service cannot start from it.")
    raise SystemExit
net = ipaddress.ip_network(os.environ["FL_NET"])
me = ipaddress.ip_address(os.environ["GRADER_ADDRESS"])
admits = lambda a: not allowed or any(a in n for n in allowed)
left_out = [a for a in net.hosts() if not admits(a)]
if left_out:
    print(f"refuse inventory-api's allowed_networks leaves out {len(left_out)} of the {net.num_addresses - 2} addresses of the internal network ({net}), e.g. {left_out[0]}: every service there may call it.")
else:
    print("ok", "yes" if admits(me) else "no")
PY
verdict=$(GRADER_ADDRESS=$me python3 -I -S "$tmp/conf.py") || refuse "The grader could not read inventory-api's configuration."

# get <path>: sets code, server, rc; the body is in $tmp/body.
get() {
  : >"$tmp/headers"; : >"$tmp/body"
  code=$(fetch "$base$1" -sS --max-time 5 -D "$tmp/headers" -o "$tmp/body" -w '%{http_code}' 2>"$tmp/err")
  rc=$?
  server=$(awk 'tolower($1) == "server:" {sub(/\r$/, ""); $1 = ""; sub(/^ /, ""); print; exit}' "$tmp/headers")
}
# field NAME: a string or number field of the JSON body (inventory-api writes flat objects).
field() {
  local body re
  body=$(cat "$tmp/body")
  re="\"$1\": (\"([^\"]*)\"|(-?[0-9]+))"
  [[ "$body" =~ $re ]] && printf '%s\n' "${BASH_REMATCH[2]}${BASH_REMATCH[3]}"
}

get /health
case $rc in
  0) ;;
  7) refuse "Connection refused at $base from $me (another host of the internal network): nothing accepts connections on port 8080 of ${FL_TARGET}'s network address. Is inventory-api running, and which address and port does it really listen on?" ;;
  28|52|56) refuse "Port 8080 of $FL_TARGET accepts the connection from $me, but no HTTP answer came back ($(sed 's/^curl: ([0-9]*) //' "$tmp/err")). Whatever holds that port is not inventory-api." ;;
  6) refuse "$FL_TARGET does not resolve from the grader: $(cat "$tmp/err")" ;;
  *) refuse "Calling $base/health from $me failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")" ;;
esac
[[ "$server" == inventory-api/* ]] || refuse "Something answers HTTP $code on port 8080 of $FL_TARGET, but it is not inventory-api (Server: ${server:-none}). The clients get the wrong service."
if [ "$code" = 403 ] && [ "$verdict" != "ok no" ]; then
  refuse "inventory-api answers, but refuses the client $me with HTTP 403: $(head -c 300 "$tmp/body"). order-svc and ship-svc call it from this same internal network."
fi
[[ "$verdict" == "ok "* ]] || refuse "${verdict#refuse }"
if [ "$verdict" = "ok yes" ]; then
  [ "$code" = 200 ] && [ "$(field status)" = ok ] || refuse "inventory-api answers $base/health with HTTP $code instead of a healthy 200."
  [ "$(field instance)" = "$FL_INSTANCE" ] || refuse "Something answers as inventory-api on port 8080, but not with this host's instance and data."
  get "/v1/items/$FL_SKU"
  if [ "$rc" != 0 ] || [ "$code" != 200 ] || [ "$(field qty)" != "$FL_QTY" ]; then
    refuse "/health is fine, but a stock lookup at $base/v1/items/ did not return the item's stock level from /var/lib/inventory-api (HTTP ${code:-none})."
  fi
else
  # After the boot the grader is on the copy's own network, which an allow list naming the
  # internal network rightly refuses: the service's own refusal is the answer to expect.
  [ "$code" = 403 ] || refuse "inventory-api answers $base/health with HTTP $code to a host its allow list does not admit."
fi

# Who answered: the service's own program, on every address, and nothing else on its port.
cat >"$tmp/who.py" <<'PY'
import sys
ns = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "fl.py", "exec"), ns)
ARGV = ["/usr/bin/python3", "-I", "-S", "/usr/lib/inventory-api/inventory_api.py", "/etc/inventory-api/api.conf"]
try:
    for pid in ns["verify_listener"](8080, "/usr/bin/python3.11", [ARGV], ["/etc/inventory-api", "/etc/inventory-api/api.conf"]):
        user = ns["user_name"](ns["uid_of"](pid))
        if user != "inventory":
            raise ns["Refused"](f"inventory-api runs as {user}; it must run as its own unprivileged user, inventory (use its service script).")
    for addr, _, _ in ns["listeners"](8080):
        if addr != "0.0.0.0":
            raise ns["Refused"](f"inventory-api listens on {addr} only: as before, it must listen on every address of inv01 (bind = 0.0.0.0).")
    # The boot's own scripts as installed (a script of one's own could undo the repair later).
    ns["boot_scripts_pristine"]()
except ns["Refused"] as e:
    print(e)
    sys.exit(1)
except OSError as e:
    print(f"The grader could not read what it needs ({e.strerror}).")
    sys.exit(1)
PY
who=$(python3 -I -S "$tmp/who.py") || refuse "${who:-The grader could not judge who answers: not graded.}"
echo "inventory-api answers at $base from another host of the internal network: /health is ok and the stock lookups return this host's data."
