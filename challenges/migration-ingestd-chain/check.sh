#!/bin/bash
# Grading: runs in the grader beside edge01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of edge01's. It posts as an edge collector does, then makes
# sure who answered: port 7070 is held only by the system's /usr/sbin/ingestd, started the usual
# way as its user, with no loader variable in its environment and every library it maps from the
# read-only system (the vendor's library through the loader's configuration, no copy in
# /usr/local); and the migrated batches are all there, unchanged.
# Environment: FL_TARGET, FL_INSTANCE, FL_BATCHES, FL_DIGEST (chosen by setup.sh).
url="http://${FL_TARGET}:7070/"
body=$(curl -sS --max-time 5 -d 'batch=probe' "$url" 2>&1) || refuse "Nothing answers at $url: ingestd is not running (${body#curl: })."
[[ "$body" == *"\"instance\": \"$FL_INSTANCE\""* ]] || refuse "Something answers at $url, but it is not this host's ingestd: the collectors' batches go nowhere."
pids=$(fl service 7070 /usr/sbin/ingestd --argv '["/usr/sbin/ingestd","/etc/ingestd.conf"]' --config /etc/ingestd.conf) || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = ingestd ] || refuse "ingestd runs as $user: start it with its service script, as the user ingestd."
done
spool=/var/spool/ingestd
names=$(fl ls "$spool" 2>/dev/null | grep -E '^batch-[0-9]{4}\.dat$')
count=$(grep -c . <<<"$names")
digest=$(for n in $names; do fl read "$spool/$n" || exit 1; done | sha256sum | cut -d' ' -f1)
if [ "$count" != "$FL_BATCHES" ] || [ "$digest" != "$FL_DIGEST" ]; then
  refuse "ingestd runs, but the migrated batches in $spool are not what they were: the data must be kept."
fi
echo "ingestd takes the collectors' batches again, from the system's program, with the migrated spool intact."
