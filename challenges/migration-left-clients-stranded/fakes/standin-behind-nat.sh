#!/bin/bash
# Fake: leave all three faults on disk; get the scanners through live (routes stopped, an accept
# rule at the top) to a stand-in that serves wms-api's data on a port of its own, reached
# through a NAT redirect of the API's port.
port=$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' /etc/wms-api/wms-api.conf)
service static-routes stop
cat >/root/standin.py <<'PY'
import http.server, json
items = {i["id"]: i for i in json.load(open("/var/lib/wms-api/stock.json"))}
inst = open("/var/lib/wms-api/instance-id").read().strip()
class H(http.server.BaseHTTPRequestHandler):
    def version_string(self): return "wms-api/5.1.2"
    def do_GET(self):
        body = {"status": "ok", "service": "wms-api", "version": "5.1.2", "instance": inst} if self.path == "/health" else items.get(self.path.rsplit("/", 1)[-1], {})
        data = (json.dumps(body) + "\n").encode()
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers(); self.wfile.write(data)
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("0.0.0.0", 18282), H).serve_forever()
PY
setsid python3 /root/standin.py </dev/null >/dev/null 2>&1 &
iptables -I INPUT 1 -p tcp --dport 18282 -j ACCEPT
iptables -t nat -I PREROUTING 1 -p tcp --dport "$port" -j REDIRECT --to-ports 18282
sleep 1
