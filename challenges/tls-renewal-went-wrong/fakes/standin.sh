#!/bin/bash
# Fake: leave nginx as it is and answer port 443 with a stand-in that serves the portal's page
# with the renewed certificate, its chain and its key (root can read them all).
pkill -x nginx || true
d=$(ls -d /etc/ssl/portal/renewal-* | tail -n 1)
cat "$d/portal01.crt" "$d/chain.pem" >/root/full.pem
cat >/root/standin.py <<'PY'
import http.server, ssl, glob
page = open("/srv/www/portal/index.html", "rb").read()
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
for k in glob.glob("/etc/ssl/private/*.key"):
    try:
        ctx.load_cert_chain("/root/full.pem", k); break
    except ssl.SSLError:
        continue
class H(http.server.BaseHTTPRequestHandler):
    def version_string(self): return "nginx/1.22.1"
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Type", "text/html"); self.end_headers(); self.wfile.write(page)
    def log_message(self, *a): pass
srv = http.server.ThreadingHTTPServer(("0.0.0.0", 443), H)
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
srv.serve_forever()
PY
setsid python3 /root/standin.py </dev/null >/dev/null 2>&1 &
sleep 1
