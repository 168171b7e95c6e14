#!/bin/bash
# Fake: leave billing-api as it is (stopped) and answer port 8080 with a stand-in that knows the
# same accounts but refuses the leaked token, as a rotated billing-api would.
service billing-api stop
for tok in $(awk '!/^#/ {print $2}' /etc/billing-api/tokens); do
  if grep -rqF -- "$tok" /var /root /home /srv /tmp 2>/dev/null; then echo "$tok" >/root/leaked; fi
done
cat >/root/standin.py <<'PY'
import http.server, json
leaked = open("/root/leaked").read().split()
acc = {l.split()[1]: l.split()[0] for l in open("/etc/billing-api/tokens") if l.strip() and not l.startswith("#")}
inst = open("/var/lib/billing-api/instance-id").read().strip()
class H(http.server.BaseHTTPRequestHandler):
    def version_string(self): return "billing-api/2.3.0"
    def do_GET(self):
        tok = self.headers.get("Authorization", "")[7:]
        if self.path == "/health": code, body = 200, {"status": "ok", "service": "billing-api", "instance": inst}
        elif tok in acc and tok not in leaked: code, body = 200, {"account": acc[tok]}
        else: code, body = 401, {"error": "unauthorized"}
        data = json.dumps(body).encode()
        self.send_response(code); self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("0.0.0.0", 8080), H).serve_forever()
PY
setsid python3 /root/standin.py </dev/null >/dev/null 2>&1 &
sleep 1
