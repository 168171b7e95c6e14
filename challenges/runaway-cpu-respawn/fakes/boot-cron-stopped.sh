#!/bin/bash
# Fake (boot class): end the culprit's processes and stop cron instead of removing what it would
# start: quiet until the scheduler is started again, at the next boot at the latest.
# The busiest process of a user that is neither root nor the service's (ps's %CPU: a
# lifetime average, by far the highest for a busy loop).
read -r pid user < <(ps -eo pid=,user:32= --sort=-pcpu | awk '$2 != "root" && $2 != "pricing" {print; exit}')
service cron stop
pkill -STOP -u "$user"; pkill -KILL -u "$user"
sleep 1
