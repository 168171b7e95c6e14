#!/bin/bash
# Grading: runs in the grader beside pay01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of pay01's. The gateway must be the system's program, as its own
# user, serving this deployment's instance; then every file in pay01's writable directories that
# holds the provider key or the TLS key must be out of other accounts' reach (not readable by
# others through directories they can enter, owned by root or payments, no group but payments or
# root), while the gateway can still read its own two files at its next start. Secrets never go
# into a command's arguments: the inspector gets them through its environment.
# Environment: FL_TARGET, FL_EXPOSED, FL_API_KEY, FL_KEY_LINE, FL_KEY_DIGEST, FL_INSTANCE, FL_SUBMISSION.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { python3 -I -S -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], ""))' "$tmp/body" "$1" 2>/dev/null; }

code=$(curl -sS --max-time 5 -o "$tmp/body" -w '%{http_code}' "http://$FL_TARGET:8443/health" 2>/dev/null) || code=none
[ "$code" = 200 ] && [ "$(field instance)" = "$FL_INSTANCE" ] ||
  refuse "The payment gateway does not answer at http://$FL_TARGET:8443/health as this host's payments-gw (HTTP $code): payments are down."
pids=$(fl service 8443 /usr/bin/python3.11 --argv '["/usr/bin/python3","-I","-S","/usr/lib/payments-gw/payments_gw.py"]') || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = payments ] || refuse "payments-gw runs as $user; it must run as its own user, payments (use its service script)."
done

report=$(python3 -I -S - <<'PY'
import grp, os, pwd, stat, sys
sys.path.insert(0, "/tmp")
import fl
needles = [os.environ["FL_API_KEY"].encode(), os.environ["FL_KEY_LINE"].encode()]
trusted_uids = {0, pwd.getpwnam("payments").pw_uid}
trusted_gids = {0, grp.getgrnam("payments").gr_gid}
budget = 300000

def exposed(path, st):
    """Who else than root and payments can read the file (or make it readable)?"""
    if st.st_uid not in trusted_uids:
        return True
    if st.st_mode & stat.S_IRGRP and st.st_gid not in trusted_gids:
        return True
    if not st.st_mode & stat.S_IROTH:
        return False
    parts = path.strip("/").split("/")[:-1]
    for n in range(1, len(parts) + 1):
        d = fl.stat_path("/" + "/".join(parts[:n]))
        if not d.st_mode & stat.S_IXOTH:
            return False
    return True

def walk(fd, path):
    global budget
    for name in os.listdir(fd):
        budget -= 1
        if budget < 0:
            raise fl.Refused("There are too many files for the grader to look at.")
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            continue
        if stat.S_ISDIR(st.st_mode):
            try:
                sub = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=fd)
            except OSError:
                continue
            try:
                walk(sub, f"{path}/{name}")
            finally:
                os.close(sub)
        elif stat.S_ISREG(st.st_mode) and 0 < st.st_size <= fl.MAX_READ:
            try:
                f = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
            except OSError:
                continue
            try:
                data = os.read(f, fl.MAX_READ + 1)
            finally:
                os.close(f)
            if any(n in data for n in needles) and exposed(f"{path}/{name}", st):
                print(f"exposed {path}/{name}")

def readable_by_payments(path):
    st = fl.stat_path(path)
    if st.st_uid == trusted_uids.difference({0}).pop():
        ok = st.st_mode & stat.S_IRUSR
    elif st.st_gid in trusted_gids - {0}:
        ok = st.st_mode & stat.S_IRGRP
    else:
        ok = st.st_mode & stat.S_IROTH
    return bool(ok)

try:
    for top in ("/etc", "/var", "/root", "/home", "/tmp", "/run", "/srv", "/opt", "/usr/local", "/dev"):
        try:
            fd, canonical = fl.resolve(top, want_dir=True)
        except (FileNotFoundError, NotADirectoryError):
            continue
        try:
            walk(fd, canonical.rstrip("/"))
        finally:
            os.close(fd)
    for p in ("/etc/payments-gw/credentials.ini", "/etc/payments-gw/tls/key.pem"):
        try:
            if not readable_by_payments(p):
                print(f"unreadable {p}")
        except (FileNotFoundError, NotADirectoryError):
            print(f"missing {p}")
    print("done")
except fl.Refused as e:
    print(f"refused {e}")
except OSError as e:
    print(f"refused The grader could not look at pay01's files ({e.strerror}).")
PY
)
[[ "$report" == *refused* || "$report" == *done ]] || refuse "The grader could not look at pay01's files."
while read -r kind path; do
  case "$kind" in
    refused) refuse "$path" ;;
    exposed) refuse "A file that holds the gateway's secrets can still be read (or made readable) by accounts other than root and payments." ;;
  esac
done <<<"$report"
while read -r kind path; do
  case "$kind" in
    missing) refuse "$path is gone: the gateway cannot start without it." ;;
    unreadable) refuse "$path cannot be read by the payments account any more: the gateway would not start again." ;;
  esac
done <<<"$report"
conf=$(fl read /etc/payments-gw/credentials.ini) || refuse "The grader could not read the gateway's credentials: $conf"
[[ "$conf" == *"$FL_API_KEY"* ]] || refuse "The gateway's credentials file does not hold its provider key any more: keep the secrets, restrict who can read them."
[ "$(fl sha256 /etc/payments-gw/tls/key.pem)" = "$FL_KEY_DIGEST" ] || refuse "The gateway's TLS key is not the one it was given: keep it, restrict who can read it."

answer_mentions "$FL_EXPOSED" || answer_mentions "${FL_EXPOSED##*/}" ||
  refuse "pay01's secrets are safe, but your report does not name the file that exposed them."
echo "The gateway's secrets are readable by root and payments only, and the gateway still serves payments."
