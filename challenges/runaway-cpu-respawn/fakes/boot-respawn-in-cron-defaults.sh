#!/bin/bash
# Fake (boot class): clean up the live system as the reference does (the culprit's processes
# ended, its crontab emptied), and keep the runaway's restart in /etc/default/cron, which
# /etc/init.d/cron sources at every start: a minute after each boot (or `service cron restart`)
# the runaway spins again, as its user. At the grader's look after the boot only a root `sleep`
# waits. The init scripts themselves stay as installed; what they read is not.
read -r pid user < <(ps -eo pid=,user:32= --sort=-pcpu | awk '$2 != "root" && $2 != "pricing" {print; exit}')
path=$(tr '\0' '\n' </proc/"$pid"/cmdline | grep '^/' | tail -n1)
crontab -l -u "$user" 2>/dev/null | sed 's/^[^#]/# disabled: &/' | crontab -u "$user" -
pkill -STOP -u "$user"; pkill -KILL -u "$user"
cat >>/etc/default/cron <<CONF
( sleep 60; su -s /bin/bash $user -c "cd; setsid nohup $path >/dev/null 2>&1 &" ) </dev/null >/dev/null 2>&1 &
CONF
sleep 1
