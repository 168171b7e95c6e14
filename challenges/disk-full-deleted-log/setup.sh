#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there):
# writes a few journals (random sizes and content), starts ledgerd, lets its log fill /srv, then
# deletes the log while ledgerd still holds it open. Prints the values the check needs as JSON.
set -euo pipefail
service ledgerd stop >/dev/null 2>&1 || true
rm -rf /srv/ledger/data/* /srv/ledger/log/*
journals=$((3 + RANDOM % 4))
for i in $(seq 1 "$journals"); do
  head -c $(((512 + RANDOM % 1536) * 1024)) /dev/urandom >"/srv/ledger/data/journal-$(printf %04d "$i").dat"
done
digest=$(cat /srv/ledger/data/journal-*.dat | sha256sum | cut -d' ' -f1)
service ledgerd start >/dev/null
for _ in $(seq 50); do [ -s /srv/ledger/data/heartbeat ] && break; sleep 0.1; done

# The debug setting: the log grows until /srv is full (yes stops at "No space left on device").
yes "$(date -Is) DEBUG txn committed: account=4711 amount=12.50 balance=1032.75 latency_ms=3" \
  >>/srv/ledger/log/ledgerd.log 2>/dev/null || true
# The on-call engineer's "fix": delete the log. ledgerd still has it open.
rm -f /srv/ledger/log/ledgerd.log
sleep 1.5
printf '{"journals":"%s","digest":"%s"}\n' "$journals" "$digest"
