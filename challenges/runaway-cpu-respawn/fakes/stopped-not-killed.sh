#!/bin/bash
# Fake: freeze the runaway program (SIGSTOP) instead of dealing with it: the CPU looks quiet.
# The busiest process of a user that is neither root nor the service's (ps's %CPU: a
# lifetime average, by far the highest for a busy loop).
pid=$(ps -eo pid=,user:32= --sort=-pcpu | awk '$2 != "root" && $2 != "pricing" {print $1; exit}')
kill -STOP "$pid"
sleep 1
