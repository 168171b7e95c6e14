#!/bin/bash
# Fake: give the space back without ending what holds it: truncate the deleted spill through the
# descriptor that holds it (the job and its helper stay stuck, holding an empty deleted file).
# Where only a mapping holds it (no descriptor to truncate), end the job and leave it down.
done=""
for fd in /proc/[0-9]*/fd/*; do
  case "$(readlink "$fd" 2>/dev/null)" in /srv/*" (deleted)") : >"$fd" && done=1 ;; esac
done
if [ -z "$done" ]; then
  for p in /proc/[0-9]*; do
    grep -q '/srv/.* (deleted)' "$p/maps" 2>/dev/null && kill "${p#/proc/}"
  done
fi
sleep 1.5
