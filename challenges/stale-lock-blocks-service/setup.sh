#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment, fed on stdin,
# never stored there). invoiced will not start: its ledger lock (/run/invoiced/invoiced.lock, an
# flock) is held by another process (FAULTLINE_FAULT forces which):
#   orphan_helper   a helper the crashed invoiced had started (random: tail, sleep or dd on a
#                   FIFO) inherited the lock's descriptor and outlived it;
#   stopped_export  an operator (random user) suspended a manual invoice-export with Ctrl-Z and
#                   went home; the stopped export still holds the lock.
# The lock was taken by a process that is gone (the crashed invoiced, the flock(1) utility), so
# /proc/locks does not show a live owner either, and the holder runs as another user than root,
# so root cannot list its descriptors here (no ptrace): lsof stays silent. The holder's own user
# can look (runuser). Prints the values the check needs as JSON on its last line.
set -euo pipefail
faults=(orphan_helper stopped_export)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
lock=/run/invoiced/invoiced.lock
logf=/var/log/invoiced/invoiced.log
service invoiced stop >/dev/null 2>&1 || true
instance=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
echo "$instance" >/var/lib/invoiced/instance-id
install -d -o invoiced -g billing -m 0775 /run/invoiced
install -o invoiced -g billing -m 0664 /dev/null "$lock"
ts() { date -d "@$1" +%Y-%m-%dT%H:%M:%S%z; }
t=$(($(date +%s) - 5 * 3600 - RANDOM % 3600))
{
  echo "$(ts $t) INFO invoiced 4.2 started (pid $((300 + RANDOM % 500))), holding $lock"
  for _ in $(seq 12); do t=$((t + 60 + RANDOM % 900)); echo "$(ts $t) INFO 10.0.$((RANDOM % 4)).$((2 + RANDOM % 200)) \"GET /v1/invoices/INV-$((100000 + RANDOM)) HTTP/1.1\" 200 -"; done
} >"$logf"
chown invoiced:invoiced "$logf"

# As the holder's user (root has no ptrace here): does process $1 have the lock file open?
holds_lock() { runuser -u "$2" -- readlink "/proc/$1/fd/9" 2>/dev/null | grep -qx "$lock"; }
# PIDs in a fresh container are predictable: move the counter on by a random amount so the
# holder's PID differs between deployments.
for _ in $(seq $((20 + RANDOM % 400))); do ( : ); done
case "$fault" in
  orphan_helper)
    case $((RANDOM % 3)) in
      0) name=tail; helper="exec tail -f /var/log/invoiced/export.log" ; : >/var/log/invoiced/export.log ;;
      1) name=sleep; helper="exec sleep $((86400 + RANDOM))" ;;
      2) name=dd; mkfifo -m 0660 /run/invoiced/export.fifo; chown invoiced:invoiced /run/invoiced/export.fifo
         helper="exec dd if=/run/invoiced/export.fifo of=/dev/null status=none" ;;
    esac
    su -s /bin/bash invoiced -c "cd /var/lib/invoiced; setsid /bin/bash -c 'exec 9>>$lock; flock -n 9 || exit 1; $helper' </dev/null >/dev/null 2>&1 &"
    for _ in $(seq 200); do pid=$(pgrep -u invoiced -x "$name" || true); [ -n "$pid" ] && holds_lock "$pid" invoiced && break; sleep 0.05; done
    owner=invoiced
    echo "$(ts $(($(date +%s) - 1800))) INFO export helper started (pid $pid)" >>"$logf"
    echo "$(ts $(($(date +%s) - 1795))) CRITICAL worker died: MemoryError in render_pdf(); invoiced exiting" >>"$logf"
    ;;
  stopped_export)
    op=$(shuf -n1 -e mkowalski jtanaka abrown ffischer lrossi sdubois)
    name=invoice-export
    useradd --create-home --shell /bin/bash -G billing "$op"
    printf 'cd\ninvoice-export 2025-%02d\n' $((1 + RANDOM % 12)) >"/home/$op/.bash_history"; chown "$op:$op" "/home/$op/.bash_history"
    su -s /bin/bash "$op" -c "cd; setsid /usr/bin/invoice-export 2025-$(printf %02d $((1 + RANDOM % 12))) >>export.log 2>&1 </dev/null &"
    for _ in $(seq 200); do pid=$(pgrep -u "$op" -f /usr/bin/invoice-export | head -n1 || true); [ -n "$pid" ] && holds_lock "$pid" "$op" && break; sleep 0.05; done
    owner=$op
    kill -STOP "$pid"
    ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
[ -n "$pid" ] && holds_lock "$pid" "$owner" || { echo "setup: the holder does not hold the lock" >&2; exit 1; }
start=$(awk '{print $22}' "/proc/$pid/stat")
printf 'service invoiced restart\ntail /var/log/invoiced/invoiced.log\nexit\n' >/root/.bash_history
service invoiced start >/dev/null 2>&1 || true
if curl -s --max-time 2 -o /dev/null http://127.0.0.1:8080/health; then echo "setup: invoiced started anyway" >&2; exit 1; fi
# The written answer's candidates: every program that could have held the lock, and every PID of
# the host at this point.
pids=$(ps -eo pid= | tr -s ' \n' ' ')
printf '{"fault":"%s","instance":"%s","holder_pid":"%s","holder_start":"%s","holder_name":"%s","programs":"%s","pids":"%s"}\n' \
  "$fault" "$instance" "$pid" "$start" "$name" "tail sleep dd invoice-export" "$pids"
