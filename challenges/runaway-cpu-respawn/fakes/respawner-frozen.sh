#!/bin/bash
# Fake: freeze whatever brings the runaway program back (the user's other processes, and cron)
# and kill the program, leaving the crontab or the frozen watchdog in place to bring it back later.
# The program is found as top would show it first: the most CPU over two seconds, of a user that
# is neither root nor the service's.
snap() { for s in /proc/[0-9]*/stat; do cat "$s" 2>/dev/null; echo; done | awk 'NF {print $1, $14 + $15}' | sort; }
a=$(snap); sleep 2; b=$(snap)
read -r pid user < <(join <(echo "$a") <(echo "$b") | awk '{print $3 - $2, $1}' | sort -rn |
  while read -r _ p; do u=$(ps -o user= -p "$p" 2>/dev/null); [ -n "$u" ] && [ "$u" != root ] && [ "$u" != pricing ] && { echo "$p $u"; break; }; done)
for p in $(pgrep -u "$user"); do [ "$p" != "$pid" ] && kill -STOP "$p"; done
pkill -STOP -x cron || true
kill -KILL "$pid"
sleep 1
