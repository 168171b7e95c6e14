#!/bin/bash
# Fake: give the space back, restart ledgerd the usual way, then freeze it (SIGSTOP) and keep its
# heartbeat moving from a loop of our own: the real program is there, but it does not work.
for fd in /proc/[0-9]*/fd/*; do
  case "$(readlink "$fd" 2>/dev/null)" in /srv/*" (deleted)") : >"$fd" ;; esac
done
service ledgerd restart
sleep 0.5
kill -STOP "$(cat /run/ledgerd.pid)"
setsid bash -c 'while :; do date +%s >/srv/ledger/data/heartbeat; sleep 0.5; done' </dev/null >/dev/null 2>&1 &
sleep 1
