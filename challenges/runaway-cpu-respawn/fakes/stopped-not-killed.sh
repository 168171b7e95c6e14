#!/bin/bash
# Fake: freeze the runaway program (SIGSTOP) instead of dealing with it: the CPU looks quiet.
# The program is found as top would show it first: the most CPU over two seconds, of a user that
# is neither root nor the service's.
snap() { for s in /proc/[0-9]*/stat; do cat "$s" 2>/dev/null; echo; done | awk 'NF {print $1, $14 + $15}' | sort; }
a=$(snap); sleep 2; b=$(snap)
pid=$(join <(echo "$a") <(echo "$b") | awk '{print $3 - $2, $1}' | sort -rn |
  while read -r _ p; do u=$(ps -o user= -p "$p" 2>/dev/null); [ -n "$u" ] && [ "$u" != root ] && [ "$u" != pricing ] && { echo "$p"; break; }; done)
kill -STOP "$pid"
sleep 1
