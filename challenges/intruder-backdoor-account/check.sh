#!/bin/bash
# Grading: runs in the grader beside bastion01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of bastion01's. Who may log in is decided by the account files at
# every login (nothing is started or cached), so both phases judge the files, the way the C
# library's account lookups read them (a line's leading blanks are skipped, `#` lines are
# comments, the first matching entry wins):
#   - nobody but root has user id 0;
#   - /etc/passwd, /etc/group and /etc/gshadow exactly as installed (fl.pristine: bytes, mode,
#     owner, ACLs: the intruder's account gone or disarmed, its group memberships and any group
#     password gone, every other account and group kept);
#   - /etc/shadow with the team's passwords of this deployment line for line, nothing usable for
#     the intruder's account on any line that names it, and its owner, mode and ACLs as installed;
#   - what decides how a login is checked as installed: the PAM stack, /etc/security and
#     /etc/nsswitch.conf (a pam_permit lets anyone in with any password);
#   - what runs at boot, at shutdown and at root's logins as installed (/etc/init.d, /etc/rc*.d,
#     /etc/rc.local, /etc/default, the profile files): a script there could put the account back
#     minutes after the boot, later than the check of the booted copy.
# After the boot the same files are judged again: a start-up script that puts the account back at
# once is caught there too. One python run with fl.py's functions. Environment: FL_ACCOUNT (never in an
# argument), FL_SHADOW (digest of the shadow lines that must stay). The account's name in the
# report is the platform's to judge (challenge.yaml answer:).
verdict=$(python3 -I -S - <<'PY'
import hashlib, os, stat, sys
sys.path.insert(0, "/tmp")
import fl

Refused = fl.Refused
account = os.environ["FL_ACCOUNT"]


def entries(text):
    """(name, fields) of each entry as the C library reads the file (nss_files: leading blanks
    skipped, empty and `#` lines ignored)."""
    for raw in text.split("\n"):
        line = raw.lstrip(" \t\r\v\f")
        if not line or line.startswith("#"):
            continue
        fields = line.split(":")
        yield fields[0], fields, raw


def uid_of(text):
    """A user id as the C library converts it (strtoul: blanks, a sign and leading zeros allowed)."""
    try:
        return int(text.strip(" \t"))
    except ValueError:
        return None


def read(path):
    try:
        return fl.read_file(path).decode("utf-8", "replace")
    except FileNotFoundError:
        raise Refused(f"{path} is gone: bastion01's accounts live there. Take away only what the intruder set up.")


def differences(path, kind):
    """Why the file is not as installed, in the player's terms (it is not: fl.pristine said so)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        installed = f.read().split("\n")
    theirs = read(path).split("\n")
    names = lambda lines: {l.split(":")[0].strip() for l in lines if l.strip()}
    a = "An" if kind == "account" else "A"
    if names(installed) - names(theirs):
        return f"{a} {kind} that belongs on bastion01 is gone from {path}: take away only what the intruder set up."
    if names(theirs) - names(installed):
        return f"{path} still has {a.lower()} {kind} that is not one of bastion01's own."
    if sorted(installed) != sorted(theirs):
        what = "shell, home, ids or password" if kind == "account" else "members, id or password"
        return f"{a} {kind} in {path} is not as it was installed ({what} changed): the intruder's changes are still there."
    return f"{path} is not as installed (its order, owner, mode or ACLs changed): put it back as it was."


with fl.verdict("The grader could not read bastion01's account files"):
    for name, fields, _ in entries(read("/etc/passwd")):
        if len(fields) > 2 and uid_of(fields[2]) == 0 and name != "root":
            raise Refused("An account other than root still has user id 0 in /etc/passwd: whoever knows its password is root.")
    for path, kind in (("/etc/passwd", "account"), ("/etc/group", "group"), ("/etc/gshadow", "group")):
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(differences(path, kind))
    for path in ("/etc/pam.d", "/etc/security", "/etc/nsswitch.conf"):
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: it decides who may log in and how. Take away only what the intruder set up.")
    # What runs at every boot or shutdown, and whenever root opens a shell: a script there that
    # puts the account back could wait until after the check of the booted copy (a detached job
    # that sleeps), or until the next login.
    for path in ("/etc/init.d", "/etc/rc.local", "/etc/default", *(f"/etc/rc{r}.d" for r in "0123456S"),
                 "/etc/profile", "/etc/profile.d", "/etc/bash.bashrc", "/etc/environment",
                 "/root/.bashrc", "/root/.profile", "/root/.bash_profile", "/root/.bash_login", "/root/.bash_logout"):
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: it runs at every boot or every root login, and nothing of the intruder's may.")
    shadow = read("/etc/shadow")
    kept = []
    for raw in shadow.split("\n")[:-1] if shadow.endswith("\n") else shadow.split("\n"):
        line = raw.lstrip(" \t\r\v\f")
        if line and not line.startswith("#") and line.split(":")[0] == account:
            password = line.split(":")[1] if ":" in line else ""
            if not password.startswith(("!", "*")):
                raise Refused("/etc/shadow still holds a usable password for the account the intruder logged in with.")
        else:
            kept.append(raw + "\n")
    if hashlib.sha256("".join(kept).encode()).hexdigest() != os.environ["FL_SHADOW"]:
        raise Refused("/etc/shadow does not hold the team's passwords as they were: the team's own accounts must keep working.")
    fd, _ = fl.resolve("/etc/shadow")
    try:
        st, acl = os.fstat(fd), fl._xattrs(fd)
    finally:
        os.close(fd)
    mine = os.stat("/etc/shadow")
    if (stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid, acl) != (stat.S_IMODE(mine.st_mode), mine.st_uid, mine.st_gid, fl._xattrs("/etc/shadow")):
        raise Refused("/etc/shadow's owner, mode or ACLs are not as installed: the password hashes must stay readable by root and the shadow group only.")
PY
) || refuse "The grader could not read bastion01's account files."
[ "$verdict" = ok ] || refuse "$verdict"
echo "The intruder's account is closed, and the team's accounts are as they were."
