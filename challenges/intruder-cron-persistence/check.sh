#!/bin/bash
# Grading: runs in the grader beside jobs02 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of jobs02's. Three things the intruder left, then the jobs:
#   no set-id program in the writable directories (fl.py's descriptor walk, no link followed);
#   the accounts as installed (/etc/passwd and /etc/group against the image's originals in the
#     grader's own /etc), the team's passwords of this deployment, nothing usable for the
#     intruder's account;
#   every root job's script, sourced file and the directories above them root's alone, the
#     scripts saying what they said (fl normalized: comments and blanks do not count), the
#     cron.d entries as installed, and the system's cron running.
# The intruder's account never goes into a command's arguments (bash builtins only).
# Environment: FL_ACCOUNT, FL_JOB, FL_SHADOW, FL_DIGEST, FL_SUBMISSION.
scripts=(/opt/reports/bin/daily-report.sh /usr/local/sbin/tmp-cleanup /srv/metrics/collect.sh /var/lib/dbbackup/run-backup.sh)
sourced=(/opt/reports/etc/report.env /usr/local/etc/cleanup.conf /srv/metrics/collect.conf /etc/dbbackup/backup.conf)

# inspect PATH...: "setid PATH" for each set-id regular file under the writable directories, then
# "bad PATH" for each path given that (or a directory above it) is not root's alone, "missing PATH",
# then "digest HEX" of the files named in $FL_HASHED as `fl normalized` shows them (one python
# run: each fl call costs an interpreter start).
inspect() {
  python3 -I -S - "$@" <<'PY'
import hashlib, os, stat, sys
sys.path.insert(0, "/tmp")
import fl
budget = 300000
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
        elif stat.S_ISREG(st.st_mode) and st.st_mode & (stat.S_ISUID | stat.S_ISGID):
            print(f"setid {path}/{name}")
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
    for p in sys.argv[1:]:
        try:
            fd, canonical = fl.resolve(p)
            os.close(fd)
        except (FileNotFoundError, NotADirectoryError):
            print(f"missing {p}")
            continue
        parts = canonical.strip("/").split("/")
        for n in range(len(parts), 0, -1):
            st = fl.stat_path("/" + "/".join(parts[:n]))
            if st.st_uid != 0 or st.st_mode & 0o022:
                print(f"bad {p}")
                break
    h = hashlib.sha256()
    for p in os.environ["FL_HASHED"].split():
        try:
            h.update((fl._normalized(fl.read_file(p)) + "\n").encode())
        except (FileNotFoundError, NotADirectoryError):
            h.update(b"\0missing")
    print(f"digest {h.hexdigest()}")
    print("done")
except fl.Refused as e:
    print(f"refused {e}")
except OSError as e:
    print(f"refused The grader could not look at jobs02's files ({e.strerror}).")
PY
}
report=$(FL_HASHED="${scripts[*]} ${sourced[*]}" inspect "${scripts[@]}" "${sourced[@]}" /usr/local/bin /usr/local/sbin)
[[ "$report" == *refused* || "$report" == *done ]] || refuse "The grader could not look at jobs02's files."
while read -r kind path; do
  case "$kind" in
    refused) refuse "$path" ;;
    setid) refuse "A program in jobs02's writable directories still hands its owner's privileges to whoever runs it (set-user-ID or set-group-ID)." ;;
  esac
done <<<"$report"

# The accounts.
passwd=$(fl read /etc/passwd) || refuse "The grader could not read /etc/passwd: $passwd"
group=$(fl read /etc/group) || refuse "The grader could not read /etc/group: $group"
shadow=$(fl read /etc/shadow) || refuse "The grader could not read /etc/shadow: $shadow"
while IFS=: read -r name _ uid _; do
  if [ "$uid" = 0 ] && [ "$name" != root ]; then
    refuse "An account other than root has user id 0 in /etc/passwd."
  fi
done <<<"$passwd"
compare() { # compare FILE CONTENT KIND
  local installed
  installed=$(cat "$1")
  [ -z "$(comm -23 <(sort <<<"$installed") <(sort <<<"$2"))" ] || refuse "An $3 that belongs on jobs02 is missing or changed in $1: take away only what the intruder added."
  [ -z "$(comm -13 <(sort <<<"$installed") <(sort <<<"$2"))" ] || refuse "$1 has an $3 entry that is not one of jobs02's own."
}
compare /etc/passwd "$passwd" account
compare /etc/group "$group" "account or group"
kept=""
while IFS= read -r line; do
  if [ "${line%%:*}" = "$FL_ACCOUNT" ]; then
    refuse "/etc/shadow still holds the password of an account that is not in /etc/passwd."
  fi
  kept+="$line"$'\n'
done <<<"$shadow"
[ "$(printf '%s' "$kept" | sha256sum | cut -d' ' -f1)" = "$FL_SHADOW" ] ||
  refuse "/etc/shadow does not hold the team's passwords as they were: the team's accounts must keep working."

# The jobs.
while read -r kind path; do
  case "$kind" in
    missing) refuse "$path is gone: the root jobs need it. Make it safe rather than removing it." ;;
    bad) refuse "A root cron job still runs or reads a file that users other than root can change (the file itself or a directory above it)." ;;
  esac
done <<<"$report"
same=$(fl pristine /etc/crontab /etc/cron.d) || refuse "The root jobs in /etc/crontab and /etc/cron.d must stay as they were: $same"
digest=$(sed -n 's/^digest //p' <<<"$report")
[ "$digest" = "$FL_DIGEST" ] ||
  refuse "A job's script or settings do not say what they said before the intrusion: remove what the intruder added, keep the rest."
pids=$(fl find-argv '["/usr/sbin/cron"]')
[ -n "$pids" ] || refuse "cron is not running (service cron start): the jobs must keep running."
for pid in $pids; do
  msg=$(fl process "$pid" /usr/sbin/cron --argv '["/usr/sbin/cron"]') || refuse "$msg"
done

# Naming every candidate is not an answer (the same lists setup.sh picks from).
for a in sysupd kworkerd dbus-daemon1 systemd-cron nscd-agent pulse-sync apt-helper; do
  [ "$a" = "$FL_ACCOUNT" ] && continue
  answer_mentions "$a" && refuse "jobs02 is clean, but your report also names accounts the intruder did not keep: name only theirs."
done
for s in "${scripts[@]}"; do
  [ "$s" = "$FL_JOB" ] && continue
  if answer_mentions "$s" || answer_mentions "${s##*/}"; then
    refuse "jobs02 is clean, but your report also names jobs the intruder did not use: name only the one they came back through."
  fi
done
answer_mentions "$FL_ACCOUNT" || refuse "jobs02 is clean, but your report does not name the account the intruder kept for themselves."
answer_mentions "$FL_JOB" || answer_mentions "${FL_JOB##*/}" ||
  refuse "jobs02 is clean, but your report does not name the job (its script) the intruder used to come back."
echo "The intruder's account, their root shell and their foothold in the cron job are gone; the jobs run as before."
