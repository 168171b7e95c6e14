#!/bin/bash
# Fake (boot class): end the culprit's processes and stop cron instead of removing what it would
# start: quiet until the scheduler is started again, at the next boot at the latest.
snap() { for s in /proc/[0-9]*/stat; do cat "$s" 2>/dev/null; echo; done | awk 'NF {print $1, $14 + $15}' | sort; }
a=$(snap); sleep 2; b=$(snap)
read -r pid user < <(join <(echo "$a") <(echo "$b") | awk '{print $3 - $2, $1}' | sort -rn |
  while read -r _ p; do u=$(ps -o user= -p "$p" 2>/dev/null); [ -n "$u" ] && [ "$u" != root ] && [ "$u" != pricing ] && { echo "$p $u"; break; }; done)
service cron stop
pkill -STOP -u "$user"; pkill -KILL -u "$user"
sleep 1
