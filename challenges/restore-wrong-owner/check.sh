#!/bin/bash
# Grading: runs in the grader beside the target (docs/decisions/008-grading-threat-model.md),
# never inside it, and executes nothing of the target's. It asks:
#   the restored data is intact (its records' digest, read with fl);
#   tallyd works: its heartbeat in the data directory moves;
#   who does the work: the system's /usr/sbin/tallyd, unaltered, as its own unprivileged user,
#     started after the last change of its settings.
# Environment: FL_USER, FL_DATA, FL_DIGEST chosen by setup.sh. Exit 0 = fixed.
records="$FL_DATA/db/records.dat"
digest=$(fl sha256 "$records" 2>/dev/null) || refuse "The restored records ($records) are gone: the data must be kept."
[ "$digest" = "$FL_DIGEST" ] || refuse "The restored records in $records were changed: the data must be kept as restored."

first=$(fl read "$FL_DATA/db/heartbeat" 2>/dev/null || echo 0)
sleep 2.5
second=$(fl read "$FL_DATA/db/heartbeat" 2>/dev/null || echo 0)
if ! [ "$second" -gt "$first" ] 2>/dev/null; then
  refuse "tallyd's heartbeat in $FL_DATA/db is not moving: it is not working. Its log says why."
fi

pids=$(fl find-argv '["/bin/bash","/usr/sbin/tallyd"]')
[ -n "$pids" ] || refuse "Something writes the heartbeat, but tallyd is not running."
verified=0
for pid in $pids; do
  # A fork of tallyd that has not run its command yet shows the same arguments and may be gone.
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
