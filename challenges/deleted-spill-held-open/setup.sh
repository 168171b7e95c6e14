#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): writes
# the database's blocks (random), picks its background jobs (random names and spill modes),
# starts tsdbd and the jobs, and triggers one job's run, which spills into an unlinked temporary
# file until /srv is full and then waits forever, holding it open (through a helper process) or
# mapped (FAULTLINE_FAULT forces which). Prints the check's values and the written answer's
# candidates as JSON on its last line.
set -euo pipefail
faults=(fd_with_helper mmap_only)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
rm -rf /srv/tsdb/data/* /srv/tsdb/tmp/* /etc/tsdb/jobs/* /run/tsdb-jobs /var/log/tsdb/*
mkdir -p /srv/tsdb/data /srv/tsdb/tmp /etc/tsdb/jobs /run/tsdb-jobs /var/log/tsdb

blocks=$((3 + RANDOM % 3))
for i in $(seq 1 "$blocks"); do
  head -c $(((512 + RANDOM % 1024) * 1024)) /dev/urandom >"/srv/tsdb/data/$(printf '%06d' $((i * 3600)))-$(printf '%06d' $(((i + 1) * 3600))).blk"
done
digest=$(cat /srv/tsdb/data/*.blk | sha256sum | cut -d' ' -f1)

all=(export-archive compact-shards snapshot-verify rollup-hourly index-rebuild retention-sweep)
mapfile -t jobs < <(shuf -n $((3 + RANDOM % 2)) -e "${all[@]}")
holder=${jobs[RANDOM % ${#jobs[@]}]}
spill="$holder-$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n').spill"
spills=()
for j in "${jobs[@]}"; do
  mode=$(shuf -n1 -e fd mmap)
  [ "$j" = "$holder" ] && case "$fault" in fd_with_helper) mode=fd ;; mmap_only) mode=mmap ;; *) echo "unknown fault: $fault" >&2; exit 2 ;; esac
  name=$([ "$j" = "$holder" ] && echo "$spill" || echo "$j-$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n').spill")
  spills+=("\"/srv/tsdb/tmp/$name\"")
  printf '# tsdb background job %s. Runs when the scheduler triggers it.\n[job]\nschedule = %02d:%02d daily\nspill = %s\nspill_dir = /srv/tsdb/tmp\nspill_name = %s\n' \
    "$j" $((RANDOM % 6)) $((RANDOM % 60)) "$mode" "$name" >"/etc/tsdb/jobs/$j.conf"
done

service tsdbd start >/dev/null
service tsdb-jobs start >/dev/null
# Last night's run of one job: it spills until /srv is full, then waits, forever.
touch "/run/tsdb-jobs/$holder.trigger"
for _ in $(seq 50); do grep -qs 'spilled' "/var/log/tsdb/$holder.log" && break; sleep 0.1; done
grep -qs 'spilled' "/var/log/tsdb/$holder.log" || { echo "setup: $holder did not spill" >&2; exit 1; }
sleep 1.2
printf 'df -h /srv\nls -la /srv/tsdb/tmp\nexit\n' >/root/.bash_history
# spill_path: the file the answer must name; spills: every job's spill file (the candidates).
printf '{"fault":"%s","holder":"%s","spill_path":"/srv/tsdb/tmp/%s","spills":[%s],"jobs":"%s","blocks":"%s","digest":"%s","setup_at":"%s"}\n' \
  "$fault" "$holder" "$spill" "$(IFS=,; echo "${spills[*]}")" "${jobs[*]}" "$blocks" "$digest" "$(date +%s)"
