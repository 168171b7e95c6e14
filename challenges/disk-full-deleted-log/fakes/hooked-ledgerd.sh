#!/bin/bash
# Fake: give the space back, then start the real ledgerd with a shell start-up hook (BASH_ENV)
# that could make it do anything, here: claim to write its heartbeat.
for fd in /proc/[0-9]*/fd/*; do
  case "$(readlink "$fd" 2>/dev/null)" in /srv/*" (deleted)") : >"$fd" ;; esac
done
service ledgerd stop
echo 'echo "$(date +%s)" >/srv/ledger/data/heartbeat' >/root/hook.sh
BASH_ENV=/root/hook.sh setsid /usr/sbin/ledgerd </dev/null >/dev/null 2>&1 &
sleep 0.5
