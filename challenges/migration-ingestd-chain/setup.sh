#!/bin/bash
# Injects the faults when a deployment starts (run as root inside the deployment, fed on stdin,
# never stored there). edge01 was just migrated; ingestd fails three ways in a row, each found
# only once the one before is fixed:
#   1. the loader cannot find the vendor's library (FAULTLINE_FAULT forces how: its ld.so.conf.d
#      file was dropped, renamed so the *.conf include skips it, or the cache was built without it);
#   2. the spool came over with rsync --numeric-ids: it belongs to the old host's uid (random),
#      which has no name here, so ingestd cannot open its journal;
#   3. the old version, started by the migration engineer for a test (random place), still holds
#      port 7070.
# The spool's batches and instance id are random. Prints the values the check needs as JSON.
set -euo pipefail
faults=(conf_deleted renamed stale_cache)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
spool=/var/spool/ingestd
conf=/etc/ld.so.conf.d/ingestd.conf
service ingestd stop >/dev/null 2>&1 || true
rm -rf "${spool:?}"/*

# The migrated spool: random batches, the instance id, the journal; owned by the old host's uid.
batches=$((4 + RANDOM % 6))
for i in $(seq -f '%04g' 1 "$batches"); do
  head -c $((2000 + RANDOM % 6000)) /dev/urandom | base64 >"$spool/batch-$i.dat"
done
# The digest covers every batch's name and bytes, in name order.
digest=$(python3 -I -S - "$spool" <<'PY'
import hashlib, os, sys
h = hashlib.sha256()
for name in sorted(os.listdir(sys.argv[1])):
    if name.startswith("batch-"):
        with open(os.path.join(sys.argv[1], name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read())
print(h.hexdigest())
PY
)
instance=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
echo "$instance" >"$spool/instance-id"
for i in $(seq $((20 + RANDOM % 50))); do echo "receipt $i"; done >"$spool/journal"
while :; do olduid=$((1100 + RANDOM % 3000)); getent passwd "$olduid" >/dev/null || break; done
chown -R "$olduid:$olduid" "$spool"
chmod 0750 "$spool"; chmod 0640 "$spool"/*

# 1. The loader.
case "$fault" in
  conf_deleted) rm -f "$conf"; ldconfig ;;
  renamed) mv "$conf" "$conf$(shuf -n1 -e .migrated .bak .old .save)"; ldconfig ;;
  stale_cache) mv "$conf" /root/.ingestd.conf.tmp; ldconfig; mv /root/.ingestd.conf.tmp "$conf" ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac

# 3. The old version, still running from the migration test, as the migration engineer.
old=/opt/$(shuf -n1 -e ingestd-1.4 ingestd-legacy ingest-old edge-ingest-1.x)
mkdir -p "$old/bin"
cat >"$old/bin/ingestd-legacy.py" <<'PY'
# ingestd 1.4 (python port, for the migration dry run): accepts batches and drops them.
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    server_version = "ingestd/1.4"
    def do_GET(self):
        self.send_response(503); self.end_headers(); self.wfile.write(b'{"status": "draining"}\n')
    do_POST = do_GET
    def log_message(self, *a): pass
http.server.HTTPServer(("0.0.0.0", int(sys.argv[sys.argv.index("--port") + 1])), H).serve_forever()
PY
chown -R migrate:migrate "$old"
printf 'sudo rsync -a --numeric-ids old-edge01:/var/spool/ingestd/ /var/spool/ingestd/\ncd %s\npython3 bin/ingestd-legacy.py --port 7070 &\ncurl -s localhost:7070/\nexit\n' "$old" >/home/migrate/.bash_history
chown migrate:migrate /home/migrate/.bash_history
su -s /bin/bash migrate -c "cd $old; setsid python3 bin/ingestd-legacy.py --port 7070 </dev/null >/dev/null 2>&1 &"
for _ in $(seq 300); do ss -Hltn 'sport = :7070' | grep -q . && break; sleep 0.05; done
ss -Hltn 'sport = :7070' | grep -q . || { echo "setup: the old version did not start" >&2; exit 1; }

printf 'service ingestd start\ncat /var/log/ingestd/startup.log\nexit\n' >/root/.bash_history
service ingestd start >/dev/null 2>&1 || true
if curl -s --max-time 2 http://127.0.0.1:7070/ | grep -q "$instance"; then echo "setup: ingestd works" >&2; exit 1; fi
printf '{"fault":"%s","instance":"%s","batches":"%s","digest":"%s"}\n' "$fault" "$instance" "$batches" "$digest"
