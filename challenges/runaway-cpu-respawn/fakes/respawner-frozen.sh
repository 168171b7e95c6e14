#!/bin/bash
# Fake: freeze whatever else the user runs (the watchdog, if any) and kill the runaway program,
# leaving its crontab and the frozen watchdog in place to bring it back later.
read -r pid user < <(ps -eo pid=,user=,pcpu= --sort=-pcpu | awk '$2 != "root" && $2 != "pricing" {print $1, $2; exit}')
for p in $(pgrep -u "$user"); do [ "$p" != "$pid" ] && kill -STOP "$p"; done
kill -KILL "$pid"
sleep 1
