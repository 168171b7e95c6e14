#!/bin/bash
# Grading: runs in the grader beside stock01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of stock01's. It polls stockd as the dashboards do, then makes
# sure who answered: port 9100 is held only by the system's /usr/sbin/stockd, started the usual
# way as its user, with no loader variable (LD_LIBRARY_PATH...) in its environment and every
# library it maps from the read-only system: the vendor's library must come from
# /usr/lib/stockd/lib through the loader's configuration, not a copy in /usr/local.
# Environment: FL_TARGET, FL_INSTANCE (chosen by setup.sh).
url="http://${FL_TARGET}:9100/"
body=$(curl -sS --max-time 5 "$url" 2>&1) || refuse "Nothing answers at $url: stockd is not running (${body#curl: })."
[[ "$body" == *"\"instance\": \"$FL_INSTANCE\""* ]] || refuse "Something answers at $url, but not this host's stockd."
pids=$(fl service 9100 /usr/sbin/stockd --argv '["/usr/sbin/stockd","/etc/stockd.conf"]' --config /etc/stockd.conf) || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = stockd ] || refuse "stockd runs as $user: start it with its service script, as the user stockd."
done
echo "stockd answers again, with its own library loaded from the system."
