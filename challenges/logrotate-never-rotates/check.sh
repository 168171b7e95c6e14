#!/bin/bash
# Grading: runs in the grader beside the target (docs/decisions/008-grading-threat-model.md),
# never inside it, and executes nothing of the target's. It asks:
#   pricefeed writes to a fresh log (small, and growing while the check watches);
#   the old weeks of log were rotated, not thrown away (a rotated file next to it, compressed or
#     not, starts with this deployment's first line);
#   who writes: the system's /usr/sbin/pricefeed as its user, started after its settings;
#   it keeps working: the rotation's configuration parses (the grader's own logrotate reads a
#     copy of it in debug mode, which runs nothing), covers the log pricefeed writes, makes
#     pricefeed reopen it (or copies and truncates), and logrotate's state knows that log.
# Environment: FL_LOG (pricefeed's log) and FL_MARKER chosen by setup.sh. Exit 0 = fixed.

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

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=${FL_LOG%/*}
base=${FL_LOG##*/}

fl read "$FL_LOG" >"$tmp/a" 2>/dev/null || refuse "pricefeed's log $FL_LOG is missing or unreadable."
[ "$(stat -c %s "$tmp/a")" -lt 1048576 ] ||
  refuse "pricefeed's log $FL_LOG still holds weeks of lines: it has not been rotated."
sleep 1.5
fl read "$FL_LOG" >"$tmp/b" 2>/dev/null || refuse "pricefeed's log $FL_LOG is missing or unreadable."
[ "$(stat -c %s "$tmp/b")" -gt "$(stat -c %s "$tmp/a")" ] ||
  refuse "$FL_LOG is small now, but pricefeed is not writing to it: where do its new lines go?"

kept=""
for f in $(fl ls "$dir"); do
  case "$f" in "$base".[0-9]*|"$base"-*) ;; *) continue ;; esac
  fl read "$dir/$f" >"$tmp/r" 2>/dev/null || continue
  case "$f" in *.gz) first=$(gzip -dc <"$tmp/r" 2>/dev/null | head -n 1) ;; *) first=$(head -n 1 "$tmp/r") ;; esac
  [[ "$first" == *"(boot $FL_MARKER)"* ]] && kept=$f && break
done
[ -n "$kept" ] || refuse "The weeks of log that were in $FL_LOG are not in a rotated file beside it: rotate old logs, do not throw them away."

pids=$(main_pids /bin/bash /usr/sbin/pricefeed)
[ -n "$pids" ] || refuse "pricefeed is not running."
verified=0
for pid in $pids; do
  msg=$(fl process "$pid" /usr/bin/bash --argv '["/bin/bash","/usr/sbin/pricefeed"]' --config /etc/default/pricefeed) || {
    [ -e "/proc/$pid" ] || continue  # ended since it was listed
    refuse "$msg"
  }
  user=$(fl user "$pid") || { [ -e "/proc/$pid" ] || continue; refuse "$user"; }
  [ "$user" = pricefeed ] || refuse "pricefeed runs as $user: it must run as its own user (use its service script)."
  verified=$((verified + 1))
done
[ "$verified" -gt 0 ] || refuse "pricefeed is not running."

fl read /etc/logrotate.d/pricefeed >"$tmp/conf" 2>/dev/null || refuse "/etc/logrotate.d/pricefeed is missing: the next nights need it."
errors=$(logrotate -d -s "$tmp/state" "$tmp/conf" 2>&1 | grep '^error:' | grep -v 'does not exist\|stat of' | head -n 2)
[ -z "$errors" ] || refuse "The log is rotated, but logrotate still rejects /etc/logrotate.d/pricefeed: ${errors//$tmp\/conf//etc/logrotate.d/pricefeed}"
conf=$(fl normalized /etc/logrotate.d/pricefeed) || refuse "$conf"
covered=0
for pattern in "$FL_LOG" "$dir/*.log" "$dir/*"; do [[ " $conf " == *" $pattern "* ]] && covered=1; done
[ "$covered" = 1 ] || refuse "The log is rotated, but /etc/logrotate.d/pricefeed does not name the file pricefeed writes: the next nights will not rotate it."
if [[ " $conf " != *" copytruncate "* ]] && ! [[ " $conf " =~ \ postrotate\ [^}]*pricefeed[^}]*\ endscript\  ]]; then
  refuse "The log is rotated, but after the next rotation nothing tells pricefeed to open its new log."
fi
state=$(fl read /var/lib/logrotate/status 2>/dev/null) || refuse "logrotate's state file /var/lib/logrotate/status is missing."
[[ "$state" == *"\"$FL_LOG\" "* ]] || refuse "logrotate's state does not know $FL_LOG: was it rotated by logrotate?"
echo "pricefeed writes to a fresh $FL_LOG, the old lines are kept in $kept and the rotation will work again."
