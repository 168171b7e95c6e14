#!/bin/bash
# Grading: runs in the grader beside ledger01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of ledger01's: /srv's free space, the journals and the
# heartbeat are read with `fl` through the kernel's view of ledger01, and ledgerd must be the
# system's /usr/sbin/ledgerd, unaltered. Environment: FL_JOURNALS and FL_DIGEST chosen by setup.sh.
# Exit 0 = fixed; stdout = feedback for the user.
read -r avail_kb _ < <(fl df /srv) || refuse "The grader could not measure /srv."
if [ "${avail_kb:-0}" -lt 16384 ]; then
  refuse "/srv has only $((${avail_kb:-0} / 1024)) MiB free: the space is not back yet."
fi
data=/srv/ledger/data
names=$(fl ls "$data" 2>/dev/null | grep -E '^journal-[0-9]{4}\.dat$')
count=$(grep -c . <<<"$names")
digest=$(for n in $names; do fl read "$data/$n" || exit 1; done | sha256sum | cut -d' ' -f1)
if [ "$count" != "$FL_JOURNALS" ] || [ "$digest" != "$FL_DIGEST" ]; then
  refuse "The journals in /srv/ledger/data are not what they were: the ledger's data must be kept."
fi

# ledgerd: the system's program (a bash script in the read-only /usr/sbin), nothing in its way.
pids=$(fl find-argv '["/bin/bash","/usr/sbin/ledgerd"]')
[ -n "$pids" ] || refuse "ledgerd is not running."
for pid in $pids; do
  msg=$(fl process "$pid" /usr/bin/bash --argv '["/bin/bash","/usr/sbin/ledgerd"]') || refuse "$msg"
done
first=$(fl read "$data/heartbeat" 2>/dev/null || echo 0)
sleep 2.5
second=$(fl read "$data/heartbeat" 2>/dev/null || echo 0)
if ! [ "$second" -gt "$first" ] 2>/dev/null; then
  refuse "ledgerd runs, but its heartbeat in /srv/ledger/data/heartbeat is not moving."
fi
echo "/srv has $((avail_kb / 1024)) MiB free, the journals are intact and ledgerd writes its heartbeat again."
