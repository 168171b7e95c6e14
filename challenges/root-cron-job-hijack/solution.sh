#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: list the
# root jobs, then for each job's script, the files it sources, and every directory above them,
# look for an owner other than root or write permission for group or others, and take it away.
set -uo pipefail
grep -h ' root ' /etc/crontab /etc/cron.d/* | grep -v '^#'
answer=""
for script in $(awk '$6 == "root" {print $7}' /etc/crontab /etc/cron.d/*); do
  # Jobs that run a program of the read-only system (or a shell test) are not the team's scripts.
  case "$script" in /*) ;; *) continue ;; esac
  [ -f "$script" ] || continue
  files=("$script" $(sed -n 's/^\. \(.*\)$/\1/p' "$script"))
  for f in "${files[@]}"; do
    p=$f
    while [ "$p" != / ]; do
      if [ "$(stat -c %u "$p")" != 0 ] || [ -n "$(find "$p" -maxdepth 0 -perm /022)" ]; then
        ls -ld "$p"
        chown root:root "$p"
        chmod go-w "$p"
        answer+="$script (through $p) "
      fi
      p=$(dirname "$p")
    done
  done
done
[ -n "$answer" ] || { echo "no hijackable root job found"; exit 1; }
echo "ANSWER: The root cron job ${answer% } could be rewritten by other users; it is root's alone again."
