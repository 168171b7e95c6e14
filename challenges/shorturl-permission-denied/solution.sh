#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: try the
# service, read why it stopped, give the place it names back to the service's user, start it.
set -uo pipefail
service shorturl start
cat /var/log/shorturl/startup.log 2>/dev/null
tail -n 3 /var/log/shorturl/shorturl.log 2>/dev/null
# Errors name the path: "cannot open link store /var/lib/...: [Errno 13] Permission denied".
err=$( { cat /var/log/shorturl/startup.log; tail -n 3 /var/log/shorturl/shorturl.log; } 2>/dev/null | grep -E 'cannot (open|write)' | tail -n1)
echo "error: $err"
ls -ld /var/lib/shorturl /var/lib/shorturl/links.tsv /run/shorturl /var/log/shorturl /var/log/shorturl/shorturl.log
user=$(sed -n 's/^user=//p' /etc/init.d/shorturl | head -n1)
# Whatever shorturl's own places are, they belong to its user again.
for p in /var/lib/shorturl /var/lib/shorturl/links.tsv /run/shorturl /var/log/shorturl /var/log/shorturl/shorturl.log; do
  owner=$(stat -c %U "$p")
  if [ "$owner" != "$user" ]; then echo "$p belongs to $owner, not $user"; chown "$user:$user" "$p"; fi
done
service shorturl restart || exit 1
# Wait until it answers (a loaded host may take a few seconds to start it).
for _ in $(seq 40); do curl -sS --max-time 2 http://127.0.0.1:8080/health && exit 0; sleep 0.5; done
exit 1
