#!/bin/bash
# Fake: freeze whatever brings the runaway program back (the user's other processes, and cron)
# and kill the program, leaving the crontab or the frozen watchdog in place to bring it back later.
# The busiest process of a user that is neither root nor the service's (ps's %CPU: a
# lifetime average, by far the highest for a busy loop).
read -r pid user < <(ps -eo pid=,user:32= --sort=-pcpu | awk '$2 != "root" && $2 != "pricing" {print; exit}')
for p in $(pgrep -u "$user"); do [ "$p" != "$pid" ] && kill -STOP "$p"; done
pkill -STOP -x cron || true
kill -KILL "$pid"
sleep 1
