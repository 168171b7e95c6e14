#!/bin/bash
# Grading: runs in the grader beside the target (docs/decisions/008-grading-threat-model.md),
# never inside it, and executes nothing of the target's. It asks:
#   the restored data is intact (its records' digest, read with fl);
#   tallyd works: its heartbeat in the data directory moves;
#   who does the work: the system's /usr/sbin/tallyd, unaltered, as its own unprivileged user,
#     started after the last change of its settings.
# Environment: FL_USER, FL_DATA, FL_DIGEST chosen by setup.sh. Exit 0 = fixed.

# main_pids ARG...: the target's processes with exactly these arguments (the grader shares its
# PID namespace, so /proc is the kernel's own list), leaving out a fork of such a process that
# has not run its own command yet: for a moment it shows its parent's arguments, then it becomes
# another program (sleep, mv...), which fl would rightly refuse.
main_pids() {
  python3 -I -S -c '
import os, sys
want = [a.encode() for a in sys.argv[1:]]
def argv(p):
    with open(f"/proc/{p}/cmdline", "rb") as f:
        return f.read().split(b"\0")[:-1]
for p in os.listdir("/proc"):
    if not p.isdigit():
        continue
    try:
        if argv(p) != want:
            continue
        parent = open(f"/proc/{p}/stat", "rb").read().rsplit(b")", 1)[1].split()[1].decode()
        if parent != "0" and argv(parent) == want:
            continue
    except OSError:
        continue
    print(p)
' "$@"
}

records="$FL_DATA/db/records.dat"
digest=$(fl sha256 "$records" 2>/dev/null) || refuse "The restored records ($records) are gone: the data must be kept."
[ "$digest" = "$FL_DIGEST" ] || refuse "The restored records in $records were changed: the data must be kept as restored."

first=$(fl read "$FL_DATA/db/heartbeat" 2>/dev/null || echo 0)
sleep 2.5
second=$(fl read "$FL_DATA/db/heartbeat" 2>/dev/null || echo 0)
if ! [ "$second" -gt "$first" ] 2>/dev/null; then
  refuse "tallyd's heartbeat in $FL_DATA/db is not moving: it is not working. Its log says why."
fi

pids=$(main_pids /bin/bash /usr/sbin/tallyd)
[ -n "$pids" ] || refuse "Something writes the heartbeat, but tallyd is not running."
verified=0
for pid in $pids; do
  msg=$(fl process "$pid" /usr/bin/bash --argv '["/bin/bash","/usr/sbin/tallyd"]' --config /etc/default/tallyd) || {
    [ -e "/proc/$pid" ] || continue
    refuse "$msg"
  }
  user=$(fl user "$pid") || { [ -e "/proc/$pid" ] || continue; refuse "$user"; }
  [ "$user" = "$FL_USER" ] || refuse "tallyd runs as $user: it must run as its own unprivileged user, the owner of its data."
  verified=$((verified + 1))
done
[ "$verified" -gt 0 ] || refuse "Something writes the heartbeat, but tallyd is not running."
echo "tallyd runs as its own user again and its data is intact."
