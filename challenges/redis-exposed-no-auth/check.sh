#!/bin/bash
# Grading: runs in the grader beside shop01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of shop01's. redis's file is never parsed here: what redis makes
# of it is judged by its behaviour after a restart, the boot phase (a copy of shop01's disk,
# booted: redis and shopfront started from their init scripts and files).
#   - From another host of the network, as the scanner did: redis's port refuses the connection
#     or answers a command with a demand for a password (fl.tcp: "closed" only on a refusal, a
#     timeout fails).
#   - Who holds that port: the system's redis-server, as user redis (no ctime rule on redis.conf:
#     CONFIG SET then CONFIG REWRITE is an honest fix that changes the file after the start);
#     nothing else listens on shop01 (no front on another port or address, no raw socket).
#   - As a customer: shopfront (the system's program, its own user, started after the last change
#     of its file) reaches the cache. Live: with every session of this deployment and nothing the
#     attacker planted. After the boot the cache holds what redis kept on disk (a restart of a
#     pure cache may start empty): nothing the attacker planted, this deployment's data if any.
#   - When redis demands a password, the one shopfront uses (its file, read as it reads it) is
#     long enough to be one.
# One python run with fl.py's functions (each start of an interpreter costs): its clients call as
# the scanner and the customers do, with the user agent the platform picked for this check.
# Environment: FL_TARGET, FL_PORT, FL_INSTANCE, FL_SESSIONS, FL_PHASE, FL_CLIENT_AGENT.
verdict=$(python3 -I -S - <<'PY'
import configparser, http.client, json, os, socket, sys
sys.path.insert(0, "/tmp")
import fl

Refused = fl.Refused
target, port = os.environ["FL_TARGET"], int(os.environ["FL_PORT"])
SHOPFRONT = ["/usr/bin/python3", "-I", "-S", "/usr/lib/shopfront/shopfront.py", "/etc/shopfront/app.conf"]


def shop_health():
    return fl.http_get(target, 8080, "/health")


with fl.verdict("The grader could not look at shop01"):
    # The attacker's side.
    seen = fl.tcp(target, port, "PING\\r\\n")
    if seen == "closed":
        auth = False
    elif seen.startswith(("open -NOAUTH", "open -DENIED")):
        auth = True
    elif seen == "open +PONG":
        raise Refused(f"redis on {target}:{port} still answers anyone on the network without a password.")
    else:
        raise Refused(f"Port {port} of {target} accepts connections from the network and does not ask for a password ({seen[5:] or 'no answer'}).")

    # Who holds redis's port: the system's redis-server, as redis (its title names its first
    # address). Debian's /usr/bin/redis-server is a link to redis-check-rdb, one program that acts
    # by its name.
    try:
        ip = socket.gethostbyname(target)
    except OSError:
        ip = ""
    titles = [[f"/usr/bin/redis-server {a}:{port}{end}"] for a in ("127.0.0.1", "::1", "-::1", "localhost", "0.0.0.0", "*", ip) for end in ("", " ")]
    try:
        pids = fl.verify_listener(port, "/usr/bin/redis-check-rdb", titles)
    except Refused as e:
        raise Refused(f"redis is not what serves the shop's cache on port {port}: {e}")
    for pid in pids:
        user = fl.user_name(fl.uid_of(pid))
        if user != "redis":
            raise Refused(f"redis-server runs as {user}; it must run as its own user, redis (use its service script).")
    fl.quiet_net({str(port), "8080"})

    # The customer's side.
    code, health = shop_health()
    if code != 200 or not isinstance(health, dict) or health.get("redis") != "ok":
        raise Refused(f"shopfront cannot use its cache any more (http://{target}:8080/health answers HTTP {code or 'none'}): customers cannot log in.")
    for pid in fl.verify_listener(8080, "/usr/bin/python3.11", [SHOPFRONT], ["/etc/shopfront/app.conf"]):
        user = fl.user_name(fl.uid_of(pid))
        if user != "shopfront":
            raise Refused(f"shopfront runs as {user}; it must run as its own user (use its service script).")
    instance, sessions, keys = health.get("instance"), health.get("sessions"), health.get("keys")
    if os.environ["FL_PHASE"] == "live":
        if instance != os.environ["FL_INSTANCE"] or sessions != int(os.environ["FL_SESSIONS"]):
            raise Refused("shopfront reaches a cache, but the customers' sessions are gone: everybody was logged out.")
        if keys != sessions + 1:
            raise Refused("The cache still holds keys that are neither sessions nor the shop's own: what the attacker planted is still there.")
    else:
        if instance not in (None, os.environ["FL_INSTANCE"]):
            raise Refused("shopfront reaches a cache that is not this shop's.")
        if not isinstance(keys, int) or not isinstance(sessions, int) or keys != sessions + (instance is not None):
            raise Refused("The cache redis loads at start still holds keys that are neither sessions nor the shop's own: what the attacker planted comes back.")

    if auth:
        conf = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
        try:
            conf.read_string(fl.read_file("/etc/shopfront/app.conf").decode("utf-8", "replace"))
            password = conf.get("redis", "password", fallback="").strip()
        except configparser.Error:
            password = ""
        if len(password) < 12:
            raise Refused("redis asks for a password, but the one shopfront uses is too short to keep anyone out: use at least 12 random characters.")
    # The boot's own scripts as installed (a script of one's own could undo the repair later).
    fl.boot_scripts_pristine()
PY
) || refuse "The grader could not look at shop01."
[ "$verdict" = ok ] || refuse "$verdict"
echo "redis on $FL_TARGET:$FL_PORT is closed to the network, stays closed after a restart, and the shop keeps its sessions."
