#!/bin/bash
# Grading: runs in the grader beside reports01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of reports01's. Three things, with `fl`:
#   cron runs: the system's /usr/sbin/cron, unaltered, started the usual way;
#   the job ran: rollup.json was written in the last few minutes with this deployment's totals
#     (by cron or by hand: the dashboard may be refreshed at once after the fix);
#   cron itself will keep running it: a file in /etc/cron.d that cron accepts (name, user, final
#     newline) runs /usr/lib/salesrollup/rollup every minute as reports. (Owner and mode of the
#     file, which cron also checks, are not visible through `fl`: setup never breaks them.)
# Environment: FL_TOTAL (the orders' total, chosen by setup.sh).
pids=$(fl pids /usr/sbin/cron)
[ -n "$pids" ] || refuse "cron is not running on reports01."
for pid in $pids; do
  msg=$(fl process "$pid" /usr/sbin/cron --argv '["/usr/sbin/cron"]') || refuse "$msg"
done

rollup=$(fl read /var/lib/salesrollup/rollup.json) || refuse "The rollup (/var/lib/salesrollup/rollup.json) is missing."
read -r generated total < <(python3 -I -S -c 'import json,sys
try:
    d = json.loads(sys.argv[1]); print(int(d["generated"]), int(d["total_cents"]))
except Exception:
    print(0, -1)' "$rollup")
age=$(($(date +%s) - generated))
if [ "$age" -gt 150 ]; then
  refuse "The rollup (/var/lib/salesrollup/rollup.json) is stale: the job still does not run every minute."
fi
[ "$total" = "$FL_TOTAL" ] || refuse "The rollup is fresh, but its total does not match today's order files."

# What cron will run from now on.
job='/usr/lib/salesrollup/rollup'
runs_every_minute() { # content: a line "* * * * * reports /usr/lib/salesrollup/rollup..."
  awk -v job="$job" '
    /^[[:space:]]*(#|$)/ || /^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*=/ { next }
    { m = ($1 == "*" || $1 == "*/1") && $2 == "*" && $3 == "*" && $4 == "*" && $5 == "*"
      if (m && $6 == "reports" && $7 == job) found = 1 }
    END { exit !found }' <<<"$1"
}
ok=""
for name in $(fl ls /etc/cron.d 2>/dev/null); do
  [[ "$name" =~ ^[A-Za-z0-9_-]+$ ]] || continue
  last=$(fl read "/etc/cron.d/$name" 2>/dev/null | tail -c 1 | od -An -tx1 | tr -d ' \n')
  [ "$last" = 0a ] || continue
  content=$(fl read "/etc/cron.d/$name" 2>/dev/null) || continue
  runs_every_minute "$content" && ok=1 && break
done
[ -n "$ok" ] || refuse "The rollup is fresh, but not because of cron: no file in /etc/cron.d that cron accepts runs the rollup every minute as reports."
echo "cron runs the sales rollup every minute again; the dashboard's numbers are current."
