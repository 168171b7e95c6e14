#!/bin/bash
# Fake: leave inventory-api broken and answer port 8080 with a stand-in that serves the same data
# with the same headers, as the clients expect from the fixed service.
service inventory-api stop >/dev/null 2>&1 || true
for pid in $(ss -Hltnp 'sport = :8080' | grep -o 'pid=[0-9]*' | cut -d= -f2); do kill "$pid"; done
pkill -f 'http.server 8080' || true; pkill -f 'nc -dlk 8080' || true
sleep 0.3
cat >/root/standin.py <<'PY'
import http.server, json
items = {i["sku"]: i for i in json.load(open("/var/lib/inventory-api/items.json"))}
instance = open("/var/lib/inventory-api/instance-id").read().strip()
class H(http.server.BaseHTTPRequestHandler):
    def version_string(self): return "inventory-api/1.4.2"
    def send_json(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code); self.send_header("Content-Type", "application/json"); self.end_headers(); self.wfile.write(data)
    def do_GET(self):
        if self.path == "/health": return self.send_json(200, {"status": "ok", "instance": instance, "items": len(items)})
        sku = self.path.rsplit("/", 1)[-1]
        if sku in items: return self.send_json(200, items[sku])
        self.send_json(404, {"error": "not found"})
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("0.0.0.0", 8080), H).serve_forever()
PY
setsid python3 /root/standin.py </dev/null >/dev/null 2>&1 &
sleep 1
