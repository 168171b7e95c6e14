#!/bin/bash
# Grading: runs in the grader beside db02 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of db02's. Live and after a reboot:
#   who answers: port 22 is held by the system's /usr/sbin/sshd started by its service script,
#     after the last change of its configuration;
#   what the backup server sees: a login from another host of the network with the backup
#     server's key (from the platform's values, in the grader's own /tmp, never in an argument);
#     the login runs the command the backup server asks for (a word picked at each check comes
#     back), and the key's line carries no forced command and no expiry-time (it must work
#     tonight too); no rc file of sshd's or the account's runs at login but the installed one;
#   the account as sshd's StrictModes means it, ACLs included: every directory from / to the key
#     file is a real directory and the key file a regular file (no link elsewhere); the account's
#     home, .ssh and key files belong to it (or root), what is above them to root, and no other
#     account may write any of them (mode bits and ACLs, as the kernel decides);
#   sshd's configuration as installed: the files beside sshd_config byte for byte, sshd_config
#     itself read as sshd reads it (a word starting with "#" ends a line; other "#" are text),
#     equal to the installed one but for the defaults spelled out (AuthorizedKeysFile
#     .ssh/authorized_keys [.ssh/authorized_keys2], StrictModes yes, PubkeyAuthentication yes);
#     after a reboot also sshd's own answer (sshd -T, inspect.sh) for each service account, equal
#     to the answer for the installed configuration;
#   the accounts as they were (/etc/passwd, /etc/group).
# Environment: FL_TARGET, FL_USER, FL_KEY (base64 of the private key), FL_PHASE, FL_INSPECTION.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

listeners=()
for n in 0 1 2 3 4 5 6 7 8 9; do
  listeners+=(--argv "[\"sshd: /usr/sbin/sshd -E /var/log/auth.log [listener] $n of 10-100 startups\"]")
done
who=$(fl service 22 /usr/sbin/sshd "${listeners[@]}" \
  --config /etc/ssh/sshd_config --config /etc/ssh/sshd_config.d --config /etc/default/ssh) || refuse "$who"

base64 -d >"$tmp/id" 2>/dev/null <<<"$FL_KEY" || refuse "internal: the backup server's key is unreadable."
chmod 0600 "$tmp/id"
cat >"$tmp/config" <<CONF
Host db02
  HostName $FL_TARGET
  User $FL_USER
  IdentityFile $tmp/id
  IdentitiesOnly yes
  BatchMode yes
  PreferredAuthentications publickey
  PasswordAuthentication no
  KbdInteractiveAuthentication no
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  ConnectTimeout 5
  LogLevel ERROR
CONF
# The backup server runs its own commands over the login: one that answers with a word picked
# now must come back with it (a forced command, or a start-up file that ends every session, would
# not).
word="pull-$SRANDOM$SRANDOM"
if ! out=$(timeout 15 ssh -F "$tmp/config" db02 echo "$word" 2>&1 </dev/null); then
  case "$out" in
    *"Permission denied"*) refuse "sshd answers, but refuses the backup server's key: Permission denied (publickey)." ;;
    *"Connection refused"*) refuse "Nothing accepts SSH connections on db02's port 22." ;;
    *) refuse "The backup server's login to db02 failed: ${out:0:200}" ;;
  esac
fi
[ "$out" = "$word" ] || refuse "The backup server gets in, but the command it asks for does not run (it got \"${out:0:80}\" back): the login must run what the backup server asks."
# The key's own line, as sshd reads it (next to the login above): its blob, for the check below.
FL_BLOB=$(ssh-keygen -y -f "$tmp/id" 2>/dev/null | awk '{print $2}') || refuse "internal: the backup server's key is unreadable."
export FL_BLOB

verdict=$(python3 -I -S - <<'PY'
import os, stat
fl = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "/tmp/fl.py", "exec"), fl)
Refused = fl["Refused"]
user = os.environ["FL_USER"]


def out(*words):
    print(*words)
    raise SystemExit


def lstat(path):
    parent, name = path.rsplit("/", 1)
    fd, _ = fl["resolve"](parent or "/", want_dir=True)
    try:
        return os.stat(name, dir_fd=fd, follow_symlinks=False)
    finally:
        os.close(fd)


try:
    # The accounts as they were: the home sshd uses is the installed one.
    for path in ("/etc/passwd", "/etc/group"):
        try:
            fl["pristine"](path)
        except Refused:
            out("accounts")
    users = fl["_passwd"]()
    uid = users[user][0]
    home = f"/home/{user}"
    # StrictModes, counted as the kernel decides who may write (ACLs included).
    walk = ["/", "/home", home, f"{home}/.ssh"]
    keys = [f"{home}/.ssh/{n}" for n in ("authorized_keys", "authorized_keys2") if n in fl["list_dir"](f"{home}/.ssh")]
    for path in walk + keys:
        st = lstat(path) if path != "/" else fl["stat_path"]("/", want_dir=True)
        if path in walk and not stat.S_ISDIR(st.st_mode):
            out("notdir", path)
        if path in keys and not stat.S_ISREG(st.st_mode):
            out("notfile", path)
        owners = (0,) if path in ("/", "/home") else (0, uid)
        if st.st_uid not in owners:
            out("owner", path)
        for other, (other_uid, _) in users.items():
            if other_uid not in (0, uid) and "w" in fl["access"](other, path):
                out("writable", path, other)
    # What the backup server's key may do, as sshd reads its line's options (comma-separated, a
    # value in double quotes may hold commas and blanks; names in any case): a forced command
    # replaces whatever it asks for, an expiry-time ends its logins later (tonight's backup).
    def options(line):
        line = line.lstrip(" \t")
        opts, cur, quoted, i = [], "", False, 0
        while i < len(line):
            c = line[i]
            if c == "\\" and quoted and i + 1 < len(line) and line[i + 1] == "\"":
                cur += line[i:i + 2]; i += 2; continue
            if c == "\"":
                quoted = not quoted
            elif c in " \t" and not quoted:
                break
            elif c == "," and not quoted:
                opts.append(cur); cur = ""; i += 1; continue
            cur += c
            i += 1
        opts.append(cur)
        return [o.split("=", 1)[0].lower() for o in opts if o]
    for path in keys:
        for line in fl["read_file"](path).decode("utf-8", "surrogateescape").splitlines():
            words = line.split()
            if not words or words[0].startswith("#") or os.environ["FL_BLOB"] not in words:
                continue
            if words.index(os.environ["FL_BLOB"]) >= 2:  # options come before the key's type
                bad = [o for o in options(line) if o in ("command", "expiry-time")]
                if bad:
                    out("option", bad[0], path)
    # Files sshd runs at every login besides the command: the system's as installed, none of the account's.
    try:
        fl["pristine"]("/etc/ssh/sshrc")
    except Refused:
        out("config", "/etc/ssh/sshrc")
    if "rc" in fl["list_dir"](f"{home}/.ssh"):
        out("rc", f"{home}/.ssh/rc")
    # sshd's configuration: the rest byte for byte, sshd_config as sshd reads it.
    for path in ("/etc/ssh/sshd_config.d", "/etc/default/ssh", "/etc/pam.d", "/etc/ssh/sshd_not_to_be_run"):
        try:
            fl["pristine"](path)
        except Refused:
            out("config", path)

    def directives(text):
        kept = []
        for line in text.splitlines():
            words = []
            for word in line.split():
                if word.startswith("#"):
                    break
                words.append(word)
            if not words:
                continue
            if any(c in " ".join(words) for c in "\"'\\="):
                kept.append(("raw", line))  # quoting, escapes or "=": compared as written
            else:
                kept.append((words[0].lower(), *words[1:]))
        return kept

    DEFAULTS = {("authorizedkeysfile", ".ssh/authorized_keys"), ("authorizedkeysfile", ".ssh/authorized_keys", ".ssh/authorized_keys2"),
                ("strictmodes", "yes"), ("pubkeyauthentication", "yes")}
    theirs = [d for d in directives(fl["read_file"]("/etc/ssh/sshd_config").decode("utf-8", "surrogateescape")) if d not in DEFAULTS]
    with open("/etc/ssh/sshd_config", encoding="utf-8", errors="surrogateescape") as f:
        mine = directives(f.read())
    if theirs != mine:
        out("config", "/etc/ssh/sshd_config")
except (KeyError, FileNotFoundError, NotADirectoryError):
    out("missing")
except (OSError, Refused):
    out("unreadable")
out("ok")
PY
)
case "$verdict" in
  ok) ;;
  accounts) refuse "The backup server gets in, but the accounts in /etc/passwd or /etc/group are not as they were: repair the account's own home and key files instead." ;;
  notdir\ *) refuse "The backup server gets in, but ${verdict#notdir } is not a plain directory any more: the account's files belong in its own home." ;;
  option\ *) read -r _ opt path <<<"$verdict"
    refuse "The backup server gets in, but its key's line in $path carries $opt=: the backup server's own commands must run, tonight too." ;;
  rc\ *) refuse "The backup server gets in, but ${verdict#rc } runs at every login of the account: its files hold its keys, nothing that runs." ;;
  notfile\ *) refuse "The backup server gets in, but ${verdict#notfile } is not a plain file (a link elsewhere is not the account's key file)." ;;
  owner\ *) refuse "The backup server gets in, but ${verdict#owner } belongs to someone else than the account (or root): sshd's StrictModes would not trust it." ;;
  writable\ *) read -r _ path other <<<"$verdict"
    refuse "The backup server gets in, but $other may write $path (mode bits or ACL): anyone who can write there can log in as the account." ;;
  config\ *) refuse "The backup server gets in, but sshd's configuration is not as installed (${verdict#config }): keep the standard settings (StrictModes on, keys from ~/.ssh/authorized_keys) and repair the account's files instead." ;;
  missing) refuse "The backup server gets in, but the account's home or its .ssh directory is missing." ;;
  *) refuse "The grader could not read the account's files or sshd's configuration on db02: not graded." ;;
esac

if [ "$FL_PHASE" = boot ]; then
  # sshd's own reading of its configuration, for each service account, against the installed one's.
  normal() { sed -E 's/^authorizedkeysfile \.ssh\/authorized_keys( \.ssh\/authorized_keys2)?$/authorizedkeysfile (default)/'; }
  [ "$(normal <<<"${FL_INSPECTION:-}")" = "$(normal </usr/lib/sshd-installed/sshd-T.txt)" ] ||
    refuse "The backup server gets in, but sshd reads its configuration differently from the installed one (sshd -T): keep the standard settings and repair the account's files instead."
fi
echo "The backup server logs in to db02 with its key again, through the system's sshd and its standard configuration."
