#!/bin/bash
# Fake: leave nginx broken and answer port 80 with a stand-in that serves the shop's page with
# nginx's Server header, exactly what a customer would see from the fixed site.
pkill -x nginx || true
cat >/root/standin.py <<'PY'
import http.server
page = open("/srv/www/shop/index.html", "rb").read()
class H(http.server.BaseHTTPRequestHandler):
    def version_string(self): return "nginx/1.22.1"
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Type", "text/html"); self.end_headers(); self.wfile.write(page)
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("0.0.0.0", 80), H).serve_forever()
PY
setsid python3 /root/standin.py </dev/null >/dev/null 2>&1 &
sleep 1
