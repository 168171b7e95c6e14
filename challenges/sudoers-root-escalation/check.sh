#!/bin/bash
# Grading: runs in the grader beside ops03 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of ops03's. sudo reads its files at every call (nothing is
# started or cached), so both phases judge the files, exactly:
#   - /etc/sudoers, /etc/sudo.conf (plugins), the reviewed rules, and what decides who an account
#     is and which groups it is in (/etc/passwd, /etc/group, /etc/nsswitch.conf) as installed
#     (fl.pristine: bytes, mode, owner, ACLs: a `#include` is a directive to sudo, so nothing is
#     skipped as a comment); this week's on-call rule as setup wrote it; nothing else in
#     /etc/sudoers.d, not even a file sudo skips; /etc and /etc/sudoers.d writable by root alone (fl.access: ACLs too).
#   - After the boot, sudo's own answer too (inspect.sh: `sudo -l -U` for every account, on the
#     copy before it booted, trusted only when the files sudo read then were these): root keeps
#     ALL, each service account its reviewed rule, the on-call engineers theirs, nobody else any.
# One python run with fl.py's functions. Environment: FL_RULE (the grant that leads to root: named
# in the feedback only), FL_ONCALL (digest of the on-call rule), FL_ROTA (its engineers),
# FL_INSPECTION (boot). The account is the platform's to judge (challenge.yaml answer:).
verdict=$(python3 -I -S - <<'PY'
import hashlib, os, stat, sys
sys.path.insert(0, "/tmp")
import fl

D = "/etc/sudoers.d"
REVIEWED = {"10-deploy": "deploy", "20-ci-runner": "ci-runner", "30-reportsync": "reportsync"}
AS_INSTALLED = ["/etc/sudoers", "/etc/sudo.conf", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", f"{D}/README"]
ONCALL_RULE = "(root) NOPASSWD: /usr/sbin/service shopapi restart, /usr/sbin/service shopworker restart"
GRANTS = {
    "root": "(ALL : ALL) ALL",
    "deploy": "(root) NOPASSWD: /usr/sbin/service shopapi restart, /usr/sbin/service shopapi status",
    "ci-runner": "(root) NOPASSWD: /usr/bin/install -m 0644 /srv/build/shopapi.tar.gz /srv/releases/",
    "reportsync": "(root) NOPASSWD: /usr/bin/tail -n 200 /var/log/shopapi/error.log",
}
Refused = fl.Refused


def words(line):
    return " ".join(line.split())


def still_granted():
    """The grant that leads to root, as a line of a file sudo reads (feedback only: what passes is
    decided by the exact comparisons below)."""
    want = words(os.environ["FL_RULE"])
    for name in fl.list_dir(D):
        if "." in name or name.endswith("~"):
            continue
        try:
            text = fl.read_file(f"{D}/{name}").decode("utf-8", "replace")
        except (OSError, Refused):
            continue
        if any(words(line) == want for line in text.splitlines()):
            return True
    return False


def writers(path):
    """Accounts other than root that may write in `path` (as the kernel decides: ACLs included),
    or its owner when that is not root (an owner may change the mode)."""
    fd, _ = fl.resolve(path, want_dir=True)
    try:
        owner = os.fstat(fd).st_uid
    finally:
        os.close(fd)
    found = [] if owner == 0 else [fl.user_name(owner)]
    for user, (uid, _) in fl._passwd().items():
        if uid != 0 and "w" in fl.access(user, path):
            found.append(user)
    return found


def files():
    for path in AS_INSTALLED:
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: sudo reads it to decide who may do what. Put it back; the rules belong in {D}, reviewed.")
    if still_granted():
        raise Refused("sudo still grants a rule that lets an ordinary account become root.")
    for d in ("/etc", D):
        who = writers(d)
        if who:
            raise Refused(f"{who[0]} may write in {d} (its owner, mode or ACLs): whoever may write there may write a sudo rule.")
    names = set(fl.list_dir(D))
    for name in sorted(names - {"README", "15-oncall", *REVIEWED}):
        raise Refused(f"{D} holds a file that is not one of the reviewed rules ({name}): even a file sudo skips does not belong there.")
    for name in REVIEWED:
        if name not in names:
            raise Refused(f"The reviewed rule {D}/{name} is gone: its account still needs it. Remove only what leads to root.")
        try:
            fl.pristine(f"{D}/{name}")
        except Refused:
            raise Refused(f"The reviewed rule {D}/{name} is not as it was reviewed (its text, owner, mode or ACLs): restore it rather than rewriting it.")
    if "15-oncall" not in names:
        raise Refused(f"This week's on-call rule ({D}/15-oncall) is gone: the on-call engineers must keep their access.")
    fd, _ = fl.resolve(f"{D}/15-oncall")
    try:
        st, acl = os.fstat(fd), fl._xattrs(fd)
        digest = hashlib.sha256()
        for chunk in fl.stream(fd):
            digest.update(chunk)
    finally:
        os.close(fd)
    if digest.hexdigest() != os.environ["FL_ONCALL"] or (stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid) != (0o440, 0, 0) or acl != [None, None]:
        raise Refused(f"This week's on-call rule ({D}/15-oncall) is not as it was: the on-call engineers must keep their access, as reviewed.")


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def sudo_says(inspection):
    """sudo's own answers on the copy, trusted only when the files it read were the expected ones."""
    want = {p: sha256_of(p) for p in ["/etc/sudo.conf", "/etc/sudoers", "/etc/nsswitch.conf", "/etc/passwd", "/etc/group", f"{D}/README"] + [f"{D}/{n}" for n in REVIEWED]}
    want[f"{D}/15-oncall"] = os.environ["FL_ONCALL"]
    lines = inspection.splitlines()
    if "files end" not in lines or "users end" not in lines:
        raise Refused("The grader could not ask sudo what each account may run on the booted copy: not graded.")
    seen = {}
    for line in lines[: lines.index("files end")]:
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != "file":
            raise Refused("The grader could not ask sudo what each account may run on the booted copy: not graded.")
        seen[parts[1]] = parts[2]
    if seen != want:
        raise Refused("Before the boot, sudo read files that are not the installed and reviewed ones.")
    rota = set(os.environ["FL_ROTA"].split())
    users, current = {}, None
    for line in lines[lines.index("files end") + 1: lines.index("users end")]:
        if line.startswith("user "):
            current = line[5:]
            users[current] = []
        elif current is not None and line.startswith("| "):
            users[current].append(line[2:])
    passwd = [l.split(":")[0] for l in fl.read_file("/etc/passwd").decode().splitlines() if l.strip()]
    if sorted(users) != sorted(passwd):
        raise Refused("The grader could not ask sudo about every account on the booted copy: not graded.")
    for user, out in users.items():
        expected = GRANTS.get(user) or (ONCALL_RULE if user in rota else None)
        allowed = f"User {user} may run the following commands on ops03:"
        if expected is None:
            if out != [f"User {user} is not allowed to run sudo on ops03."]:
                raise Refused(f"sudo lets {user} run commands as another user, which no reviewed rule grants.")
        elif allowed not in out or out[out.index(allowed) + 1:] != [f"    {expected}"]:
            raise Refused(f"sudo does not give {user} exactly what its reviewed rule grants (sudo -l -U {user}).")


with fl.verdict("The grader could not read ops03's sudo configuration"):
    files()
    if os.environ.get("FL_PHASE") == "boot":
        sudo_says(os.environ.get("FL_INSPECTION", ""))
    # The boot's own scripts as installed (a script of one's own could undo the repair later).
    fl.boot_scripts_pristine()
PY
) || refuse "The grader could not read ops03's sudo configuration."
[ "$verdict" = ok ] || refuse "$verdict"
echo "No sudo rule on ops03 leads to root any more, and the reviewed and on-call rules work as before."
