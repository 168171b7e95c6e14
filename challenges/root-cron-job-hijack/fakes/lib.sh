#!/bin/bash
# Run before each fake (server/library/challenges.ts, loadFakes): what several of them share,
# defined here and done only where a fake calls it.
# Close the permissions as the reference does: every root job's script, the files it sources and
# each directory above them made root's and not writable by group or others. Each path closed is
# added to `closed`, and handed to the command given, if any (`close_jobs grant` runs `grant PATH`
# right after closing PATH).
close_jobs() {
  closed=""
  for script in $(awk '$6 == "root" {print $7}' /etc/crontab /etc/cron.d/*); do
    case "$script" in /*) ;; *) continue ;; esac
    [ -f "$script" ] || continue
    for f in "$script" $(sed -n 's/^\. \(.*\)$/\1/p' "$script"); do
      p=$f
      while [ "$p" != / ]; do
        if [ "$(stat -c %u "$p")" != 0 ] || [ -n "$(find "$p" -maxdepth 0 -perm /022)" ]; then
          chown root:root "$p"; chmod go-w "$p"; closed+="$p "
          if [ $# -gt 0 ]; then "$@" "$p"; fi
        fi
        p=$(dirname "$p")
      done
    done
  done
}
