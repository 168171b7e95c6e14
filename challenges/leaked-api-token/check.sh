#!/bin/bash
# Grading: runs in the grader beside billing01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of billing01's. The same in both phases (live, and after a boot,
# where billing-api started from its init script and the token file on disk):
#   - as a client from another host: billing-api answers, as this host's instance;
#   - who answers: the system's program, started by its service script as its own user, after the
#     last change of its token file (fl.py's verify_listener, as `fl service --config`);
#   - as the clients: the leaked token is refused, the account's new token (read from the token
#     file with billing-api's own rule: `#` starts a comment anywhere, then <account> <token>) is
#     accepted as that account and is long enough to be a secret, every other client's token
#     still works;
#   - the token file is readable by root and billing alone (fl.access for every account: ACLs);
#   - the account's new token is written in no other file than the token file (where the old one
#     leaked from, it would leak again), no process carries it in its arguments;
#   - the leaked token is written nowhere in billing01's writable directories, whatever a file's
#     size (fl.py's streaming search: sparse files cost what they hold), nor in a deleted file a
#     process still holds open, nor in a process's arguments or another account's environment.
# One python run with fl.py's functions (each start of an interpreter costs): its HTTP client calls
# as the story's clients do, with the user agent the platform picked for this check. Tokens reach
# it through its environment, never a command line. Environment: FL_TARGET, FL_ACCOUNT, FL_OLD,
# FL_OTHERS, FL_INSTANCE, FL_CLIENT_AGENT. The account and the file in the report are the
# platform's to judge (challenge.yaml answer:).
verdict=$(python3 -I -S - <<'PY'
import http.client, json, os, socket, stat, sys
sys.path.insert(0, "/tmp")
import fl

Refused = fl.Refused
TOKENS = "/etc/billing-api/tokens"
WRITABLE = ("/etc", "/var", "/root", "/home", "/tmp", "/run", "/srv", "/opt", "/usr/local", "/dev")
target, account, old = os.environ["FL_TARGET"], os.environ["FL_ACCOUNT"], os.environ["FL_OLD"]


def call(path, token=None):
    """A client's GET: (status, JSON body or {}); (None, {}) when nothing answers."""
    return fl.http_get(target, 8080, path, None if token is None else {"Authorization": f"Bearer {token}"})


def whoami(token):
    code, body = call("/v1/whoami", token)
    return code, body.get("account") if isinstance(body, dict) else None


with fl.verdict("The grader could not look at billing01"):
    code, body = call("/health")
    if code != 200:
        raise Refused(f"billing-api does not answer at http://{target}:8080/health (HTTP {code or 'none'}): its clients cannot work.")
    if not isinstance(body, dict) or body.get("instance") != os.environ["FL_INSTANCE"]:
        raise Refused(f"Something answers on port 8080 of {target}, but it is not this host's billing-api.")
    for pid in fl.verify_listener(8080, "/usr/bin/python3.11",
                                  [["/usr/bin/python3", "-I", "-S", "/usr/lib/billing-api/billing_api.py", TOKENS]],
                                  [TOKENS, "/var/lib/billing-api/instance-id"]):
        user = fl.user_name(fl.uid_of(pid))
        if user != "billing":
            raise Refused(f"billing-api runs as {user}; it must run as its own user, billing (use its service script).")

    code, _ = whoami(old)
    if code != 401:
        raise Refused(f"The leaked token is still accepted by billing-api (HTTP {code or 'none'}): whoever found it can still use it.")
    fresh = []
    for line in fl.read_file(TOKENS).decode("utf-8", "replace").split("\n"):
        words = line.split("#", 1)[0].split()
        if len(words) == 2 and words[0] == account and words[1] != old:
            fresh.append(words[1])
    if not fresh:
        raise Refused(f"The leaked token no longer works, but its account has no new token in {TOKENS}: the client it belongs to is locked out.")
    for token in fresh:
        if len(token) < 24:
            raise Refused("The account's new token is too short to be a secret: use at least 24 random characters.")
        code, who = whoami(token)
        if (code, who) != (200, account):
            raise Refused(f"The account's new token in {TOKENS} is not accepted by the running billing-api (HTTP {code or 'none'}).")
    for pair in os.environ["FL_OTHERS"].split():
        other, token = pair.split("=", 1)
        if whoami(token) != (200, other):
            raise Refused(f"The token of {other} no longer works: only the leaked one had to change.")

    st = fl.stat_path(TOKENS)
    users = fl._passwd()
    owners = {0, users["billing"][0]}
    if st.st_uid not in owners:
        raise Refused(f"{TOKENS} belongs to {fl.user_name(st.st_uid)}: its owner can read every client's token.")
    for user, (uid, _) in sorted(users.items(), key=lambda u: (u[1][0] < 1000, u[0])):
        if uid not in owners and "r" in fl.access(user, TOKENS):
            raise Refused(f"{TOKENS} can be read by {user}: every client's token, the new one too, is exposed to that account.")

    needle = [old.encode()]
    # The new token lives in the token file alone: written where the old one leaked from (a
    # history, a log, a note a support bundle collects), it leaks the same way.
    current = needle + [t.encode() for t in fresh]
    tokens_fd, tokens_path = fl.resolve(TOKENS)
    os.close(tokens_fd)
    for top in WRITABLE:
        try:
            for path, fd in fl.walk_files(top):
                if fl.contains(fd, current):
                    if fl.contains(fd, needle):
                        raise Refused("The old token is rotated, but it is still written in a file on billing01: remove every copy.")
                    if path != tokens_path:
                        raise Refused(f"The account's new token is written in {path} too: the token file is its only place, or it leaks the way the old one did.")
        except FileNotFoundError:
            continue
    # What processes hold: a deleted file still open keeps its content on the host, and every
    # account sees every process's arguments.
    for pid in fl.target_pids():
        try:
            args = "\0".join(fl.argv(pid)).encode()
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        if any(n in args for n in current):
            raise Refused(f"Process {pid} carries the account's old or new token in its arguments, which every account sees with ps.")
        try:
            # Another account's process: its environment is that account's (root's own shell is not
            # an exposure).
            if fl.uid_of(pid) != 0:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    if needle[0] in f.read():
                        raise Refused(f"Process {pid} ({fl.user_name(fl.uid_of(pid))}) carries the old token in its environment: that account has it.")
        except OSError:
            pass
        if fl.open_file_holding(pid, fds, needle, deleted_only=True) is not None:
            raise Refused(f"Process {pid} ({fl.user_name(fl.uid_of(pid))}) still holds a deleted file with the old token open: its content is still on billing01.")
    # The boot's own scripts as installed (a script of one's own could undo the repair later).
    fl.boot_scripts_pristine()
PY
) || refuse "The grader could not look at billing01."
[ "$verdict" = ok ] || refuse "$verdict"
echo "The leaked token is dead and gone from billing01, its account has a new one, and every other client still works."
