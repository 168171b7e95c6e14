#!/bin/bash
# Grading: runs in the grader beside ops01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of ops01's (no shell of ops01 runs: a start-up file could tell a
# grader's shell from a person's). What a root login shell (interactive, as the gateway opens
# it) runs for the tool follows from the files it reads, so those are judged as bash reads them:
#   every start-up file of that shell (/etc/profile, /etc/bash.bashrc, /etc/profile.d/*.sh,
#     root's .bash_profile, .bash_login, .profile, .bashrc, what bash-completion sources for
#     root, readline's inputrc) is absent, or the system's own bytes followed by nothing but
#     comments and blank lines (bash's rule: "#" first on the line; "x=1#;..." is a command);
#     no completion directory of root's or /usr/local's exists; root's account still starts
#     bash in /root. Then the shell's PATH is the system's /usr/local/sbin:/usr/local/bin:/usr/sbin:
#     /usr/bin:/sbin:/bin, and no alias, function or hash can hide anything;
#   nothing named like the tool is in /usr/local/sbin or /usr/local/bin (the only writable
#     directories on that PATH, before the system's read-only ones);
#   the vendor's other tools beside the wrapper are still there, unchanged (only the cause goes).
#   what the tools read themselves is as installed: ssh's client configuration (the system's and
#     root's), perl's module directories searched before the system's.
# The same files after a reboot: nothing of this lives in a process. The written answer (the
# files to blame) is judged by the platform (challenge.yaml).
# Environment: FL_TOOL, FL_WRAPPER, FL_WRAPPER_SHA, FL_STARTUP ("" for local_bin), FL_STARTUP_SHA,
# FL_KEEP, FL_KEEP_DIGEST (setup.sh).
verdict=$(python3 -I -S - <<'PY'
import hashlib, os, stat
fl = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "/tmp/fl.py", "exec"), fl)
Refused = fl["Refused"]
tool, wrapper, startup = os.environ["FL_TOOL"], os.environ["FL_WRAPPER"], os.environ["FL_STARTUP"]


def out(*words):
    print(*words)
    raise SystemExit


def lexists(path):
    parent, name = path.rsplit("/", 1)
    try:
        fd, _ = fl["resolve"](parent or "/", want_dir=True)
    except (FileNotFoundError, NotADirectoryError):
        return False
    try:
        os.stat(name, dir_fd=fd, follow_symlinks=False)
        return True
    except FileNotFoundError:
        return False
    finally:
        os.close(fd)


def sha(path):
    return hashlib.sha256(fl["read_file"](path)).hexdigest()


def judged(path):
    """'installed' (absent, or the image's bytes then only comments and blanks), 'fault' (as the
    fault left it), or 'changed'."""
    try:
        theirs = fl["read_file"](path)
    except FileNotFoundError:
        return "installed"
    except (OSError, Refused):
        return "changed"
    if path == startup and hashlib.sha256(theirs).hexdigest() == os.environ["FL_STARTUP_SHA"]:
        return "fault"
    try:
        with open(path, "rb") as f:
            mine = f.read()
    except FileNotFoundError:
        mine = b""
    if mine and not mine.endswith(b"\n"):
        return "installed" if theirs == mine else "changed"
    if not theirs.startswith(mine):
        return "changed"
    for line in theirs[len(mine):].split(b"\n"):
        bare = line.lstrip(b" \t")
        if bare and not bare.startswith(b"#"):
            return "changed"
    return "installed"


try:
    files = ["/etc/profile", "/etc/bash.bashrc", "/root/.bash_profile", "/root/.bash_login", "/root/.profile",
             "/root/.bashrc", "/root/.bash_completion", "/root/.config/bash_completion", "/etc/inputrc", "/root/.inputrc"]
    try:
        files += [f"/etc/profile.d/{n}" for n in fl["list_dir"]("/etc/profile.d") if n.endswith(".sh") and not n.startswith(".")]
    except FileNotFoundError:
        pass
    states = {path: judged(path) for path in files}
    changed = [path for path, state in states.items() if state == "changed"]
    if changed:
        out("changed", changed[0])
    for d in ("/etc/bash_completion.d", "/root/.local/share/bash-completion", "/usr/local/share/bash-completion"):
        try:
            if fl["list_dir"](d):
                out("changed", d)
        except (FileNotFoundError, NotADirectoryError):
            pass
    root = [l for l in fl["read_file"]("/etc/passwd").decode("utf-8", "replace").splitlines() if l.startswith("root:")]
    if len(root) != 1 or root[0].split(":")[5:7] not in (["/root", "/bin/bash"], ["/root", "/usr/bin/bash"]):
        out("account")
    # The wrapper is reached while nothing else put its directory away from the shell's PATH.
    reached = not startup or states.get(startup) == "fault"
    if reached and lexists(wrapper):
        out("fault" if sha(wrapper) == os.environ["FL_WRAPPER_SHA"] else "wrapper")
    if states.get(startup) == "fault":
        out("startup")
    for d in ("/usr/local/sbin", "/usr/local/bin"):
        if lexists(f"{d}/{tool}"):
            out("shadowed", d)
    # Only what shadowed the tool had to go: the vendor's other tools beside it stay as they were.
    kept = hashlib.sha256()
    for path in os.environ["FL_KEEP"].split():
        try:
            kept.update(path.encode() + b"\0" + fl["read_file"](path))
        except FileNotFoundError:
            out("collateral")
    if kept.hexdigest() != os.environ["FL_KEEP_DIGEST"]:
        out("collateral")
    # What the tool reads itself, where a wrapper's option could live on: ssh's client
    # configuration (scp), perl's module directories before the system's (perl). As installed.
    for path in ("/etc/ssh/ssh_config", "/etc/ssh/ssh_config.d", "/root/.ssh/config", "/etc/perl",
                 "/usr/local/lib/x86_64-linux-gnu/perl", "/usr/local/share/perl", "/usr/local/lib/site_perl"):
        try:
            fl["pristine"](path)
        except Refused:
            out("toolconf", path)
except (OSError, Refused):
    out("unreadable")
out("ok")
PY
)
case "$verdict" in
  ok) ;;
  fault) refuse "In a root login shell, $FL_TOOL still does not run the system's program." ;;
  wrapper) refuse "The file that runs for $FL_TOOL was changed, but a root login shell still runs it instead of the system's own $FL_TOOL." ;;
  startup) refuse "A root login shell still puts the wrapper's directory on its PATH before the system's." ;;
  shadowed\ *) refuse "In a root login shell, $FL_TOOL still does not run the system's program: something of that name in ${verdict#shadowed } comes first on PATH." ;;
  changed\ *) refuse "Root's start-up files are not the system's (comments aside): ${verdict#changed } was changed. No alias, function or extra PATH entry belongs there: take out what was added instead." ;;
  toolconf\ *) refuse "The start-up files are clean, but ${verdict#toolconf } is not as installed: it is read by root's tools themselves, and what the wrapper did does not belong there either." ;;
  collateral) refuse "$FL_TOOL works again, but the vendor's other tools that sat beside the wrapper were removed or changed: only what shadowed the system's $FL_TOOL had to go." ;;
  account) refuse "root's account in /etc/passwd no longer starts bash in /root: a login shell is not what it was." ;;
  *) refuse "The grader could not read root's start-up files on ops01: not graded." ;;
esac
echo "A root login shell runs the system's $FL_TOOL again."
