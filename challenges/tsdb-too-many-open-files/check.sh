#!/bin/bash
# Grading: runs in the grader beside metrics01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of metrics01's. It asks tsdb for its health as the dashboards
# do, then makes sure who answered: port 9090 is held only by the system's tsdb program, started
# the usual way as its user, from the configuration on disk; every shard is still there and
# served (removing shards to fit under the limit is losing data).
# Environment: FL_TARGET, FL_INSTANCE, FL_SHARDS (chosen by setup.sh).
url="http://${FL_TARGET}:9090/health"
body=$(curl -sS --max-time 5 "$url" 2>&1) || refuse "Nothing answers at $url: tsdb is not running (${body#curl: })."
[[ "$body" == *"\"instance\": \"$FL_INSTANCE\""* ]] || refuse "Something answers on port 9090, but it is not this host's tsdb."
pids=$(fl service 9090 /usr/bin/python3.11 --argv '["/usr/bin/python3","-I","-S","/usr/lib/tsdb/tsdb.py","/etc/tsdb/tsdb.conf"]' \
  --config /etc/tsdb/tsdb.conf) || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = tsdb ] || refuse "tsdb runs as $user: start it with its service script, as the user tsdb."
done
on_disk=$(fl ls /var/lib/tsdb/shards | grep -c '^shard-[0-9]*\.dat$')
if [ "$on_disk" != "$FL_SHARDS" ] || [[ "$body" != *"\"shards\": $FL_SHARDS"* ]]; then
  refuse "tsdb runs, but not with all of its shards: data in /var/lib/tsdb/shards was moved or thrown away."
fi
echo "tsdb serves all $FL_SHARDS shards again."
