#!/bin/bash
# Grading: runs in the grader beside jobs02 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of jobs02's. Both phases judge the same (after the boot, any
# start-up script has run: one that puts the intruder back is caught there), in one python run
# with fl.py's functions:
#   - no set-user-ID or set-group-ID program anywhere in jobs02's writable directories;
#   - the accounts as installed (/etc/passwd, /etc/group, /etc/gshadow exactly: fl.pristine), the
#     team's passwords of this deployment, no entry for the intruder's account in /etc/shadow
#     (read as the C library reads it: leading blanks skipped), /etc/shadow's mode as installed;
#   - what cron reads as installed (fl.pristine): /etc/crontab, /etc/cron.d, the run-parts
#     folders, the user crontabs (none), cron's PAM stack and environment files, and the loader's
#     cache and configuration, /etc/alternatives (the jobs' awk is a link there); so the jobs are
#     the team's four and nothing slips a BASH_ENV, a hook, a library or a program into them;
#     root's login files as installed too (a payload moved there would come back at the next
#     login), and what runs at boot and shutdown with the settings its scripts and cron's PAM
#     stack read (/etc/init.d, /etc/rc*.d, /etc/rc.local, /etc/default: a payload there could
#     wait until after the check of the booted copy);
#   - each job's script and sourced settings, and every directory on the way to them and to cron's
#     own folders: root's, writable by root alone (fl.access for every account: ACLs included),
#     reached through no link, held open for writing or mapped shared by no process of another
#     account;
#   - the scripts say what they said, as bash reads them: split at newlines only, no control
#     characters, the `#!` line exactly, other lines whose first non-blank character is `#` (a
#     comment wherever the installed script leaves bash at the start of a command, which it does
#     at every line end) and blank lines skipped, every other line the installed one's words;
#     the settings exactly (this deployment's digest);
#   - cron runs: the system's /usr/sbin/cron, started the usual way, no hook in it.
# Environment: FL_ACCOUNT (never in an argument), FL_SHADOW, FL_DIGEST. The account and the job in
# the report are the platform's to judge (challenge.yaml answer:).
verdict=$(python3 -I -S - <<'PY'
import hashlib, os, re, stat, sys
sys.path.insert(0, "/tmp")
import fl

Refused = fl.Refused
SCRIPTS = ["/opt/reports/bin/daily-report.sh", "/usr/local/sbin/tmp-cleanup", "/srv/metrics/collect.sh", "/var/lib/dbbackup/run-backup.sh"]
SOURCED = ["/opt/reports/etc/report.env", "/usr/local/etc/cleanup.conf", "/srv/metrics/collect.conf", "/etc/dbbackup/backup.conf"]
CRON = ["/etc/crontab", "/etc/cron.d", "/etc/cron.hourly", "/etc/cron.daily", "/etc/cron.weekly", "/etc/cron.monthly",
        "/etc/cron.yearly", "/var/spool/cron", "/etc/pam.d", "/etc/environment", "/etc/security/pam_env.conf", "/etc/default/cron"]
# Which libraries every program of the jobs loads (an intruder's library there runs in each).
# and which programs their commands name: /usr/bin/awk and others are links into /etc/alternatives.
LOADER = ["/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives"]
# What runs whenever root opens a shell: a payload moved there comes back at the next login.
LOGIN = ["/etc/profile", "/etc/profile.d", "/etc/bash.bashrc", "/etc/environment", "/root/.bashrc", "/root/.profile",
         "/root/.bash_profile", "/root/.bash_login", "/root/.bash_logout"]
# What runs at every boot and shutdown, and the settings its scripts and cron's PAM stack read
# (/etc/default/locale is pam_env's envfile for every cron job: a BASH_ENV there runs in each):
# a payload there comes back later, even minutes after the boot the check sees.
BOOT = ["/etc/init.d", "/etc/rc.local", "/etc/default", *(f"/etc/rc{r}.d" for r in "0123456S")]
WRITABLE = ("/etc", "/var", "/root", "/home", "/tmp", "/run", "/srv", "/opt", "/usr/local", "/dev")
account = os.environ["FL_ACCOUNT"]
budget = [300000]


def setid_walk(fd):
    fl.setid_below(fd, "A program in jobs02's writable directories still hands its owner's privileges to whoever runs it (set-user-ID or set-group-ID).", "There are too many files on jobs02 for the grader to look at.", budget)


def as_bash_reads(data, path):
    """The script's commands as bash reads them (see the header): its `#!` line, then the words of
    each line that is neither blank nor a comment."""
    if re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", data):
        raise Refused(f"{path} holds control characters: bash reads lines only at newlines, so what a reader takes for two lines may be one command.")
    lines = data.split(b"\n")
    kept = [lines[0]]
    for line in lines[1:]:
        line = line.strip(b" \t")
        if line and not line.startswith(b"#"):
            kept.append(b" ".join(w for w in re.split(rb"[ \t]+", line)))
    return kept


with fl.verdict("The grader could not look at jobs02's files"):
    for top in WRITABLE:
        try:
            fd, _ = fl.resolve(top, want_dir=True)
        except (FileNotFoundError, NotADirectoryError):
            continue
        try:
            setid_walk(fd)
        finally:
            os.close(fd)

    for name, fields in ((l.lstrip(" \t\r\v\f").split(":")[0], l.lstrip(" \t\r\v\f").split(":")) for l in fl.read_file("/etc/passwd").decode("utf-8", "replace").split("\n")):
        if name and not name.startswith("#") and len(fields) > 2 and fields[2].strip(" \t").lstrip("+").isdigit() and int(fields[2].strip(" \t")) == 0 and name != "root":
            raise Refused("An account other than root has user id 0 in /etc/passwd.")
    for path, kind in (("/etc/passwd", "account"), ("/etc/group", "group"), ("/etc/gshadow", "group")):
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: an {kind} was added, removed or changed. Take away only what the intruder added.")
    shadow = fl.read_file("/etc/shadow").decode("utf-8", "replace")
    kept = []
    for raw in shadow.split("\n")[:-1] if shadow.endswith("\n") else shadow.split("\n"):
        line = raw.lstrip(" \t\r\v\f")
        if line and not line.startswith("#") and line.split(":")[0] == account:
            raise Refused("/etc/shadow still holds the password of an account that is not in /etc/passwd.")
        kept.append(raw + "\n")
    if hashlib.sha256("".join(kept).encode()).hexdigest() != os.environ["FL_SHADOW"]:
        raise Refused("/etc/shadow does not hold the team's passwords as they were: the team's accounts must keep working.")
    st, mine = fl.stat_path("/etc/shadow"), os.stat("/etc/shadow")
    if (stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid) != (stat.S_IMODE(mine.st_mode), mine.st_uid, mine.st_gid):
        raise Refused("/etc/shadow's owner or mode is not as installed: the password hashes must stay readable by root and the shadow group only.")

    ids = fl.other_accounts()
    for path in CRON:
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: the root jobs must stay as they were, where they were, and nothing else may run as root from cron.")
    for path in LOADER:
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: it decides which libraries and programs the root jobs run.")
    for path in LOGIN:
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: it runs whenever root opens a shell, and nothing of the intruder's may.")
    for path in BOOT:
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: it runs, or shapes what runs, at every boot or every root job, and nothing of the intruder's may.")
    for path in SCRIPTS + SOURCED:
        try:
            st = fl.lstat_nofollow(path)
        except (FileNotFoundError, NotADirectoryError):
            raise Refused(f"{path} is gone: the root jobs need it. Make it safe rather than removing it.")
    for path in SCRIPTS + SOURCED + CRON:
        wrong = fl.root_alone(path, ids)
        if wrong:
            raise Refused(f"A root cron job still runs or reads a file that users other than root can change: {wrong}")
    held = fl.held_for_writing(SCRIPTS + SOURCED)
    if held:
        raise Refused(f"Process {held[1]} ({fl.user_name(fl.uid_of(held[1]))}) still holds {held[0]} open for writing (or mapped into its memory): it can change what root runs, whatever the modes say now.")
    for path in SCRIPTS:
        if not stat.S_ISREG(fl.lstat_nofollow(path).st_mode):
            raise Refused(f"{path} is not a file any more: the root jobs need it.")
        with open(path, "rb") as f:
            installed = f.read()
        if as_bash_reads(fl.read_file(path), path) != as_bash_reads(installed, path):
            raise Refused("A job's script does not say what it said before the intrusion: remove what the intruder added, keep the rest.")
    if fl.digest_of(*SOURCED) != os.environ["FL_DIGEST"]:
        raise Refused("A job's settings are not what they were: keep them as they are.")

    fl.cron_running()
PY
) || refuse "The grader could not look at jobs02's files."
[ "$verdict" = ok ] || refuse "$verdict"
echo "The intruder's account, their root shell and their foothold in the cron job are gone; the jobs run as before."
