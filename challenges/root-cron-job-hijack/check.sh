#!/bin/bash
# Grading: runs in the grader beside jobs01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of jobs01's. Both phases (live, and after a boot) judge what
# cron would run as root the next time, one python run with fl.py's functions:
#   - what cron reads is as installed (fl.pristine: bytes, mode, owner, ACLs): /etc/crontab, the
#     entries of /etc/cron.d and the run-parts folders, the user crontabs (none), and what shapes a
#     job's environment (cron's PAM stack, /etc/environment, pam_env.conf, /etc/default: its
#     `locale` is the envfile cron's PAM stack reads for every job): so the jobs are the
#     team's four, each running its script, and nothing slips a BASH_ENV or a hook in;
#   - each job's script and the settings file it sources (`. file`), and every directory on the
#     way to them (and to cron's own folders), are root's and writable by root alone as the kernel
#     decides (fl.access for every account: mode bits and ACLs), reached through no symbolic link,
#     and held open for writing or mapped shared by no process of another account (opened while it
#     could);
#   - the scripts and settings hold exactly what they held (this deployment's digest);
#   - cron runs: the system's /usr/sbin/cron, started the usual way, no hook in it.
# Environment: FL_DIGEST (the scripts' and settings' digest). The job's name in the report is the
# platform's to judge (challenge.yaml answer:).
verdict=$(python3 -I -S - <<'PY'
import hashlib, os, stat, sys
sys.path.insert(0, "/tmp")
import fl

Refused = fl.Refused
SCRIPTS = ["/opt/reports/bin/daily-report.sh", "/usr/local/sbin/tmp-cleanup", "/srv/metrics/collect.sh", "/var/lib/dbbackup/run-backup.sh"]
SOURCED = ["/opt/reports/etc/report.env", "/usr/local/etc/cleanup.conf", "/srv/metrics/collect.conf", "/etc/dbbackup/backup.conf"]
CRON = ["/etc/crontab", "/etc/cron.d", "/etc/cron.hourly", "/etc/cron.daily", "/etc/cron.weekly", "/etc/cron.monthly",
        "/etc/cron.yearly", "/var/spool/cron", "/etc/pam.d", "/etc/environment", "/etc/security/pam_env.conf", "/etc/default"]


with fl.verdict("The grader could not look at jobs01's files"):
    ids = fl.other_accounts()
    for path in CRON:
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: the root jobs must stay as they were, where they were (make their files safe instead).")
    for path in SCRIPTS + SOURCED:
        try:
            st = fl.lstat_nofollow(path)
        except (FileNotFoundError, NotADirectoryError):
            raise Refused(f"{path} is gone: the root jobs need it. Make it safe rather than removing it.")
        if not stat.S_ISREG(st.st_mode) and not stat.S_ISLNK(st.st_mode):
            raise Refused(f"{path} is not a file any more: the root jobs need it.")
    for path in SCRIPTS + SOURCED + CRON:
        wrong = fl.root_alone(path, ids)
        if wrong:
            raise Refused(f"A root cron job still runs or reads a file that users other than root can change: {wrong}")
    held = fl.held_for_writing(SCRIPTS + SOURCED)
    if held:
        raise Refused(f"Process {held[1]} ({fl.user_name(fl.uid_of(held[1]))}) still holds {held[0]} open for writing (or mapped into its memory): it can change what root runs, whatever the modes say now.")
    if fl.digest_of(*SCRIPTS, *SOURCED) != os.environ["FL_DIGEST"]:
        raise Refused("The jobs' scripts or their settings are not what they were: keep what they do, change only who may write them.")
    fl.cron_running()
    # The programs the jobs name (/usr/bin/awk is a link into /etc/alternatives) and the loader's
    # configuration: root runs what they point at.
    for path in ("/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d"):
        try:
            fl.pristine(path)
        except Refused:
            raise Refused(f"{path} is not as installed: it decides which programs and libraries the root jobs run.")
    # The boot's own scripts as installed (a script of one's own could undo the repair later).
    fl.boot_scripts_pristine()
PY
) || refuse "The grader could not look at jobs01's files."
[ "$verdict" = ok ] || refuse "$verdict"
echo "Every root job on jobs01 runs files only root can change, and the jobs still run."
