#!/bin/bash
# Fake: answer invoiced's health check with a stand-in on port 8080.
instance=$(cat /var/lib/invoiced/instance-id)
cat >/root/standin.py <<PY
import http.server
class H(http.server.BaseHTTPRequestHandler):
    def version_string(self): return "invoiced/4.2"
    def do_GET(self):
        self.send_response(200); self.end_headers()
        self.wfile.write(b'{"status": "ok", "service": "invoiced", "instance": "$instance"}\n')
http.server.ThreadingHTTPServer(("0.0.0.0", 8080), H).serve_forever()
PY
setsid python3 /root/standin.py </dev/null >/dev/null 2>&1 &
sleep 1
