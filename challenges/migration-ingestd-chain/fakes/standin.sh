#!/bin/bash
# Fake: replace the old version on port 7070 with a stand-in that answers like ingestd.
pkill -f 'ingestd-legacy.py'
sleep 0.3
instance=$(cat /var/spool/ingestd/instance-id)
cat >/root/standin.py <<PY
import http.server
class H(http.server.BaseHTTPRequestHandler):
    def version_string(self): return "ingestd/2.0"
    def do_GET(self):
        self.send_response(200); self.end_headers()
        self.wfile.write(b'{"status": "ok", "service": "ingestd", "instance": "$instance", "seq": 1}\n')
    do_POST = do_GET
http.server.HTTPServer(("0.0.0.0", 7070), H).serve_forever()
PY
setsid python3 /root/standin.py </dev/null >/dev/null 2>&1 &
sleep 1
