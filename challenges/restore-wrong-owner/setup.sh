#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): picks
# tallyd's user and data directory, writes its data (random records), then replays a restore
# from backup that left the data with the wrong owner or modes in one of several ways
# (FAULTLINE_FAULT forces one). tallyd fails to start. Prints the check's values as JSON.
set -euo pipefail
faults=(foreign_uid root_owned one_subdir read_only_modes)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
service tallyd stop >/dev/null 2>&1 || true

users=(tally counters metering usage statsd)
user=${users[RANDOM % ${#users[@]}]}
dirs=(/var/lib/tally /srv/tally /var/lib/tallyd/data /srv/metering/tally)
data=${dirs[RANDOM % ${#dirs[@]}]}
uid=$((300 + RANDOM % 600))
getent group "$user" >/dev/null || groupadd --system --gid "$uid" "$user"
id "$user" >/dev/null 2>&1 || useradd --system --uid "$uid" --gid "$user" --home-dir "$data" --shell /usr/sbin/nologin "$user"
cat >/etc/default/tallyd <<CONF
# tallyd: usage counter collector. Read by /etc/init.d/tallyd and by tallyd itself.
# The unprivileged user tallyd runs as (it owns DATA_DIR).
TALLY_USER=$user
# Where tallyd keeps its records (db/), its spool (spool/) and scratch files (tmp/).
DATA_DIR=$data
CONF

rm -rf "$data"
mkdir -p "$data/db" "$data/spool" "$data/tmp"
head -c $(((150 + RANDOM % 250) * 1024)) /dev/urandom >"$data/db/records.dat"
od -An -N64 -tx8 /dev/urandom | tr -s ' ' '\n' | grep . >"$data/db/records.idx"
for d in 3 2 1; do
  for _ in $(seq $((20 + RANDOM % 30))); do echo "$(date -d "-$d days" +%s) counters=$((RANDOM % 50))"; done >"$data/spool/incoming-$(date -d "-$d days" +%Y%m%d).log"
done
digest=$(sha256sum "$data/db/records.dat" | cut -d' ' -f1)
index=$(sha256sum "$data/db/records.idx" | cut -d' ' -f1)
chmod 0750 "$data"; chmod 0750 "$data"/*
chown -R "$user:$user" "$data"

old=$((1001 + RANDOM % 3000))
archive=/var/backups/tally-$(hostname)-$(date -d '-1 day' +%Y%m%d).tar.gz
case "$fault" in
  foreign_uid)
    # Extracted with the numeric owners of the host the archive was made on.
    chown -R "$old:$old" "$data"
    restore="tar -C / --numeric-owner -xzpf $archive" ;;
  root_owned)
    # Extracted without keeping owners: everything belongs to the user who ran tar.
    chown -R root:root "$data"
    restore="tar -C / --no-same-owner -xzf $archive" ;;
  one_subdir)
    # One directory came from a second, incremental archive restored separately, as root.
    sub=$(shuf -n1 -e db spool tmp)
    chown -R root:root "$data/$sub"
    restore="tar -C / -xzpf $archive; tar -C / --no-same-owner -xzf ${archive%.tar.gz}-incr-$sub.tar.gz" ;;
  read_only_modes)
    # The archive was taken from a read-only snapshot, modes and all.
    find "$data" -type d -exec chmod 0555 {} +
    find "$data" -type f -exec chmod 0444 {} +
    restore="tar -C / -xzpf /var/backups/snapshots/tally-ro-$(date -d '-1 day' +%Y%m%d).tar.gz" ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
printf 'service tallyd stop\nls /var/backups\n%s\nservice tallyd start\nexit\n' "$restore" >/root/.bash_history
rm -f /var/log/tallyd/tallyd.log
service tallyd start >/dev/null 2>&1 || true
printf '{"fault":"%s","user":"%s","data":"%s","digest":"%s","index":"%s"}\n' "$fault" "$user" "$data" "$digest" "$index"
