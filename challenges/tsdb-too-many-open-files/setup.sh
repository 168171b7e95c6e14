#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment, fed on stdin,
# never stored there). tsdb keeps one descriptor per shard; the shard count is random (600 to
# 1400). Yesterday's "hardening" lowered its open-file limit below that (FAULTLINE_FAULT forces
# where): in the service script's defaults (/etc/default/tsdb), in tsdb's own configuration
# (max_open_files), or in both: files read at every start, so the fault survives a reboot. A
# random limit between 256 and 512. Prints JSON on its last line.
set -euo pipefail
faults=(defaults_file service_config both)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
service tsdb stop >/dev/null 2>&1 || true
dir=/var/lib/tsdb/shards
rm -f "$dir"/*.dat
shards=$((600 + RANDOM % 800))
# Each shard holds its own (random) samples: a shard thrown away cannot be made up again. The
# digest covers every shard's name and bytes, in name order.
digest=$(python3 -I -S - "$dir" "$shards" <<'PY'
import hashlib, os, sys
top, n = sys.argv[1], int(sys.argv[2])
h = hashlib.sha256()
for i in range(1, n + 1):
    name = f"shard-{i:05d}.dat"
    data = b"TSDB0.9 shard %05d\n" % i + os.urandom(48).hex().encode() + b"\n"
    with open(os.path.join(top, name), "wb") as f:
        f.write(data)
    h.update(name.encode() + b"\0" + data)
print(h.hexdigest())
PY
)
chown -R tsdb:tsdb /var/lib/tsdb
instance=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
echo "$instance" >/var/lib/tsdb/instance-id
limit=$(shuf -n1 -e 256 320 384 400 448 512)
case "$fault" in
  defaults_file|both)
    printf '# CIS hardening (CHG-%d): keep descriptor limits low\nNOFILE_LIMIT=%s\n' $((10000 + RANDOM % 9000)) "$limit" >>/etc/default/tsdb ;;
esac
case "$fault" in
  service_config|both)
    sed -i "s/^max_open_files = .*/max_open_files = $(shuf -n1 -e 256 320 384 400 448 512)/" /etc/tsdb/tsdb.conf ;;
esac
case "$fault" in defaults_file|service_config|both) ;; *) echo "unknown fault: $fault" >&2; exit 2 ;; esac
# A week of normal life with fewer shards, then the restart after the change.
echo "$(date -d '-8 days' +%Y-%m-%dT%H:%M:%S%z) INFO tsdb 0.9 starting: $((shards - 150 - RANDOM % 100)) shards in $dir" >/var/log/tsdb/tsdb.log
chown tsdb:tsdb /var/log/tsdb/tsdb.log
printf 'vi /etc/default/tsdb\nvi /etc/tsdb/tsdb.conf\nservice tsdb restart\nexit\n' >/root/.bash_history
service tsdb start >/dev/null 2>&1 || true
if curl -s --max-time 2 -o /dev/null http://127.0.0.1:9090/health; then echo "setup: tsdb started anyway" >&2; exit 1; fi
printf '{"fault":"%s","instance":"%s","shards":"%s","digest":"%s"}\n' "$fault" "$instance" "$shards" "$digest"
