#!/bin/bash
# Fake: give the space back (truncate the deleted log), then run ledgerd under a copy of bash in
# the writable /usr/local (a trojan interpreter could write any heartbeat it likes), with the
# same arguments the real one shows in ps.
for fd in /proc/[0-9]*/fd/*; do
  case "$(readlink "$fd" 2>/dev/null)" in /srv/*" (deleted)") : >"$fd" ;; esac
done
service ledgerd stop
cp /bin/bash /usr/local/bin/bash
setsid bash -c 'exec -a /bin/bash /usr/local/bin/bash /usr/sbin/ledgerd' </dev/null >/dev/null 2>&1 &
sleep 0.5
