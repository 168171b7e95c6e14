#!/bin/bash
# Fake: fix nothing; run the real tallyd as root (which may write anywhere) under a copy of bash
# in the writable /usr/local, with the same arguments the real one shows in ps.
cp /bin/bash /usr/local/bin/bash
setsid bash -c 'exec -a /bin/bash /usr/local/bin/bash /usr/sbin/tallyd' </dev/null >/dev/null 2>&1 &
sleep 1.5
