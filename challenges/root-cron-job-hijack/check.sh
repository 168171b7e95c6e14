#!/bin/bash
# Grading: runs in the grader beside jobs01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of jobs01's. Every root job's script, the file it sources and
# every directory above them must be root's and writable by root alone (fl.py's descriptor walk
# resolves the paths the way cron would reach them, links included); the jobs must be as they were
# (cron.d entries as installed, scripts and their settings with this deployment's contents), and
# cron must still run: the system's /usr/sbin/cron, nothing in its way.
# Environment: FL_JOB, FL_FILE (the hijackable job and file), FL_DIGEST, FL_SUBMISSION.
scripts=(/opt/reports/bin/daily-report.sh /usr/local/sbin/tmp-cleanup /srv/metrics/collect.sh /var/lib/dbbackup/run-backup.sh)
sourced=(/opt/reports/etc/report.env /usr/local/etc/cleanup.conf /srv/metrics/collect.conf /etc/dbbackup/backup.conf)

# owned PATH...: for each path and every directory above it (as resolved in the target), a line
# "bad PATH" when it is not root's or others than root can write it; "missing PATH" when absent;
# then "digest HEX" of the files named in $FL_HASHED (one python run: each fl call costs a start).
owned() {
  python3 -I -S - "$@" <<'PY'
import hashlib, os, stat, sys
sys.path.insert(0, "/tmp")
import fl
try:
    for p in sys.argv[1:]:
        try:
            fd, canonical = fl.resolve(p)
            os.close(fd)
        except (FileNotFoundError, NotADirectoryError):
            print(f"missing {p}")
            continue
        parts = canonical.strip("/").split("/")
        for n in range(len(parts), 0, -1):
            here = "/" + "/".join(parts[:n])
            st = fl.stat_path(here)
            if st.st_uid != 0 or st.st_mode & 0o022:
                print(f"bad {p}")
                break
    h = hashlib.sha256()
    for p in os.environ["FL_HASHED"].split():
        try:
            h.update(fl.read_file(p))
        except (FileNotFoundError, NotADirectoryError):
            h.update(b"\0missing")
    print(f"digest {h.hexdigest()}")
    print("done")
except fl.Refused as e:
    print(f"refused {e}")
except OSError as e:
    print(f"refused The grader could not look at jobs01's files ({e.strerror}).")
PY
}
report=$(FL_HASHED="${scripts[*]} ${sourced[*]}" owned "${scripts[@]}" "${sourced[@]}" /usr/local/bin /usr/local/sbin)
[[ "$report" == *refused* || "$report" == *done ]] || refuse "The grader could not look at jobs01's files."
while read -r kind path; do
  case "$kind" in
    refused) refuse "$path" ;;
    missing) refuse "$path is gone: the root jobs need it. Make it safe rather than removing it." ;;
    bad) refuse "A root cron job still runs or reads a file that users other than root can change (the file itself or a directory above it)." ;;
  esac
done <<<"$report"

same=$(fl pristine /etc/crontab /etc/cron.d) || refuse "The root jobs in /etc/crontab and /etc/cron.d must stay as they were: $same"
digest=$(sed -n 's/^digest //p' <<<"$report")
[ "$digest" = "$FL_DIGEST" ] || refuse "The jobs' scripts or their settings are not what they were: keep what they do, change only who may write them."

pids=$(fl find-argv '["/usr/sbin/cron"]')
[ -n "$pids" ] || refuse "cron is not running (service cron start): the jobs must keep running."
for pid in $pids; do
  msg=$(fl process "$pid" /usr/sbin/cron --argv '["/usr/sbin/cron"]') || refuse "$msg"
done

# Naming every job is not an answer: only the one that could be taken over.
for s in "${scripts[@]}"; do
  [ "$s" = "$FL_JOB" ] && continue
  if answer_mentions "$s" || answer_mentions "${s##*/}"; then
    refuse "jobs01 is safe, but your report also names jobs that could not be taken over: name only the one that could."
  fi
done
if ! answer_mentions "$FL_JOB" && ! answer_mentions "${FL_JOB##*/}" && ! answer_mentions "$FL_FILE"; then
  refuse "jobs01 is safe, but your report does not name the root job that could be taken over."
fi
echo "Every root job on jobs01 runs files only root can change, and the jobs still run."
