#!/bin/bash
# Grading: runs in the grader beside reports01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of reports01's. Live and after a reboot, in one look:
#   cron runs: the system's /usr/sbin/cron, unaltered, started the usual way;
#   the job ran: rollup.json was written in the last few minutes with this deployment's total (by
#     cron or by hand: the dashboard may be refreshed at once after the fix);
#   cron will keep running it: a file of /etc/cron.d that cron loads, judged by cron's own rules
#     (Debian's cron(8), checked against cron 3.0pl1 itself): a name of letters, digits, "_" and
#     "-"; a regular file, or a link, owned by root, not writable by group or others, with one
#     link; every line a comment (first non-blank "#": a "#" elsewhere is text), an environment
#     setting, or a valid entry whose user exists (one bad line and cron ignores the whole file);
#     no entry left without its newline. One entry runs exactly /usr/lib/salesrollup/rollup every
#     minute as reports, with a shell that reads no hook. cron may run it: PAM's configuration as
#     installed (/etc/pam.d, /etc/security, the environment pam_env reads), the account reports
#     neither expired nor due for a password change (pam_unix's account rule), and reports can
#     read the orders and replace the rollup (the kernel's rule, the sticky bit too). After a reboot the same files are read
#     again: a job that only cron's memory holds, or a file that lives in /run, is gone there.
# Environment: FL_TOTAL (the orders' total, chosen by setup.sh).
verdict=$(python3 -I -S - <<'PY'
import json, os, re, stat, time
fl = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "/tmp/fl.py", "exec"), fl)
Refused = fl["Refused"]
JOB, USER = "/usr/lib/salesrollup/rollup", "reports"


def out(*words):
    print(*words)
    raise SystemExit


# cron runs: every cron process that is not a job's child of another one is the system's cron.
mains = []
for pid in fl["target_pids"]():
    try:
        if fl["exe"](pid) != "/usr/sbin/cron":
            continue
        try:
            if fl["exe"](fl["parent_of"](pid)) == "/usr/sbin/cron":
                continue
        except OSError:
            pass
        mains.append(pid)
    except OSError:
        continue
if not mains:
    out("nocron")
for pid in mains:
    try:
        fl["verify_process"](pid, "/usr/sbin/cron", ["/usr/sbin/cron"])
    except Refused as e:
        out("refused", e)

# The job ran: the rollup is recent (not from the future) and has today's total.
try:
    rollup = json.loads(fl["read_file"]("/var/lib/salesrollup/rollup.json"))
    generated, total = int(rollup["generated"]), int(rollup["total_cents"])
except FileNotFoundError:
    out("norollup")
except (ValueError, KeyError, TypeError, OSError, Refused):
    out("badrollup")
if not -5 <= time.time() - generated <= 150:
    out("stale")
if str(total) != os.environ["FL_TOTAL"]:
    out("total")

# cron will keep running it: cron's rules for /etc/cron.d.
users = fl["_passwd"]()
LIMITS = [(0, 59, None), (0, 23, None), (1, 31, None), (1, 12, "jan feb mar apr may jun jul aug sep oct nov dec"), (0, 7, "sun mon tue wed thu fri sat")]
EVERY = [{"*", "*/1", "0-59", "0-59/1"}, {"*", "0-23"}, {"*", "1-31"}, {"*", "1-12"}, {"*", "0-7", "0-6"}]
SHELLS = {"/bin/sh", "/usr/bin/sh", "/bin/dash", "/usr/bin/dash", "/bin/bash", "/usr/bin/bash"}
ENV_NAMES = re.compile(r"SHELL|PATH|MAILTO|MAILFROM|HOME|LOGNAME|LANG|LC_[A-Z]+|TZ|CRON_TZ")
ENV = re.compile(r"[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(.*)")
ENTRY = re.compile(r"[ \t]*(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+(.*)")
KEYWORD = re.compile(r"[ \t]*@(reboot|yearly|annually|monthly|weekly|daily|midnight|hourly)[ \t]+(\S+)[ \t]+(.*)")


def valid_field(spec, lo, hi, names):
    names = {n: lo + i for i, n in enumerate(names.split())} if names else {}
    for item in spec.split(","):
        m = re.fullmatch(r"(\*|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:/([0-9]+))?", item)
        if not m or (m.group(2) is not None and not 1 <= int(m.group(2)) <= hi):
            return False
        if m.group(1) == "*":
            continue
        values = []
        for part in m.group(1).split("-"):
            value = int(part) if part.isdigit() else names.get(part.lower())
            if value is None or not lo <= value <= hi:
                return False
            values.append(value)
        if len(values) == 2 and values[0] > values[1]:
            return False
    return True


def unquoted(value):
    value = value.rstrip(" \t")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'" and value[0] not in value[1:-1]:
        return value[1:-1]
    return None if "\"" in value or "'" in value else value


def runs_job(text):
    """Whether cron loads this file (None when it would ignore it whole) and runs the job."""
    *lines, last = text.split("\n")
    if last.strip(" \t\r\v\f") and not last.lstrip().startswith("#"):
        return None  # "Missing newline before EOF": the whole file is ignored
    found = False
    for line in lines:
        bare = line.lstrip(" \t\r\v\f")
        if not bare or bare.startswith("#"):
            continue
        env = ENV.fullmatch(line)
        if env and not ENTRY.fullmatch(line):
            value = unquoted(env.group(2))
            if value is None or not ENV_NAMES.fullmatch(env.group(1)):
                return None
            if env.group(1) == "SHELL" and value not in SHELLS:
                return None
            continue
        keyword = KEYWORD.fullmatch(line)
        if keyword:
            if keyword.group(2) not in users or not keyword.group(3).strip():
                return None
            continue
        entry = ENTRY.fullmatch(line)
        if not entry:
            return None
        fields, user, command = entry.groups()[:5], entry.group(6), entry.group(7)
        if not all(valid_field(f, *limits) for f, limits in zip(fields, LIMITS)) or user not in users or not command.strip():
            return None
        if all(f in every for f, every in zip(fields, EVERY)) and user == USER and command.rstrip(" \t") == JOB:
            found = True
    return found


def loaded(name):
    """The text of /etc/cron.d/NAME if cron would read it (its owner, mode and links), else None."""
    parent, _ = fl["resolve"]("/etc/cron.d", want_dir=True)
    try:
        st = os.stat(name, dir_fd=parent, follow_symlinks=False)
    finally:
        os.close(parent)
    if stat.S_ISLNK(st.st_mode) and st.st_uid != 0:
        return None  # WRONG SYMLINK OWNER
    try:
        fd, _ = fl["resolve"](f"/etc/cron.d/{name}")
    except (FileNotFoundError, NotADirectoryError):
        return None  # a link to nothing
    try:
        target = os.fstat(fd)
    finally:
        os.close(fd)
    if not stat.S_ISREG(target.st_mode) or target.st_uid != 0 or target.st_mode & 0o022 or target.st_nlink != 1:
        return None
    return fl["read_file"](f"/etc/cron.d/{name}").decode("utf-8", "surrogateescape")


def account_usable():
    """Whether PAM's account check (pam_unix, which cron asks before every job) lets reports in:
    the account not expired, its password not expired nor due for a forced change."""
    today = int(time.time() // 86400)
    lines = [l.split(":") for l in fl["read_file"]("/etc/shadow").decode("utf-8", "replace").splitlines() if l.startswith(USER + ":")]
    if len(lines) != 1 or len(lines[0]) < 8:
        return False
    _, _, last, _, most, _, inactive, expire = lines[0][:8]
    num = lambda v: int(v) if v.strip().lstrip("-").isdigit() else None
    last, most, inactive, expire = num(last), num(most), num(inactive), num(expire)
    if expire is not None and expire >= 0 and today >= expire:
        return False
    if last == 0:
        return False
    if last is not None and most is not None and 0 <= most < 99999 and today > last + most:
        return False
    return True


def job_can_work():
    """Whether the job, as reports, can read the orders and replace rollup.json (what the kernel decides)."""
    d = "/var/lib/salesrollup"
    if not {"w", "x"} <= set(fl["access"](USER, d)) or not {"r", "x"} <= set(fl["access"](USER, f"{d}/orders")):
        return False
    if any("r" not in fl["access"](USER, f"{d}/orders/{n}") for n in fl["list_dir"](f"{d}/orders") if n.endswith(".csv")):
        return False
    names = fl["list_dir"](d)
    if "rollup.json.tmp" in names and "w" not in fl["access"](USER, f"{d}/rollup.json.tmp"):
        return False
    if fl["stat_path"](d, want_dir=True).st_mode & stat.S_ISVTX and "rollup.json" in names and fl["stat_path"](f"{d}/rollup.json").st_uid != users[USER][0]:
        return False  # a sticky directory: only a file's owner may replace it
    return True


try:
    for name in fl["list_dir"]("/etc/cron.d"):
        if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
            continue
        text = loaded(name)
        if text is not None and runs_job(text):
            break
    else:
        out("nojob")
    # cron will be allowed to run it: PAM's configuration as installed (cron's file, what it
    # includes, the modules' settings and the environment pam_env hands every job), the account
    # usable, and the job able to do its work as reports.
    for path in ("/etc/pam.d", "/etc/security", "/etc/environment", "/etc/default/locale"):
        try:
            fl["pristine"](path)
        except Refused:
            out("pam", path)
    if not account_usable():
        out("account")
    if not job_can_work():
        out("access")
except FileNotFoundError:
    out("nojob")
except (OSError, Refused):
    out("unreadable")
out("ok")
PY
)
case "$verdict" in
  ok) ;;
  nocron) refuse "cron is not running on reports01." ;;
  refused\ *) refuse "${verdict#refused }" ;;
  norollup) refuse "The rollup (/var/lib/salesrollup/rollup.json) is missing." ;;
  badrollup) refuse "The rollup (/var/lib/salesrollup/rollup.json) is not one the job writes." ;;
  stale) refuse "The rollup (/var/lib/salesrollup/rollup.json) is stale: the job still does not run every minute." ;;
  total) refuse "The rollup is fresh, but its total does not match today's order files." ;;
  pam\ *) refuse "The job file is right, but ${verdict#pam } is not as installed: cron asks PAM before each job, and nothing there belongs to this fix." ;;
  account) refuse "The job file is right, but the account reports is expired or must change its password: cron will not run its jobs (PAM refuses it)." ;;
  access) refuse "The job file is right, but reports can no longer read the orders or replace the rollup in /var/lib/salesrollup: the next run will fail." ;;
  nojob) refuse "The rollup is fresh, but not because of cron: no file in /etc/cron.d that cron accepts runs the rollup every minute as reports." ;;
  *) refuse "The grader could not read cron's files on reports01: not graded." ;;
esac
echo "cron runs the sales rollup every minute again; the dashboard's numbers are current."
