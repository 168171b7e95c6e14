#!/bin/bash
# Fake (comment class): end the culprit's processes, then schedule what brings the runaway back in
# a form a reader that strips "#..." from each line does not see: "x=1#; <respawner>" is, to cron
# and to sh, an assignment followed by the respawner (a "#" inside a word is text).
# The busiest process of a user that is neither root nor the service's (ps's %CPU: a
# lifetime average, by far the highest for a busy loop).
read -r pid user < <(ps -eo pid=,user:32= --sort=-pcpu | awk '$2 != "root" && $2 != "pricing" {print; exit}')
home=$(getent passwd "$user" | cut -d: -f6)
respawner=$(crontab -l -u "$user" 2>/dev/null | awk '!/^#/ && NF {print $6; exit}')
[ -n "$respawner" ] || respawner=$(ls "$home"/*.sh 2>/dev/null | head -n1)
pkill -STOP -u "$user"; pkill -KILL -u "$user"
# Due half an hour from now (once an hour): nothing starts it while the check looks, and the
# check must see the schedule itself.
printf '%d * * * * x=1#; %s\n' $(( (10#$(date +%M) + 30) % 60 )) "$respawner" | crontab -u "$user" -
sleep 1
