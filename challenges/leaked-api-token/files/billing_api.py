#!/usr/bin/python3
"""billing-api 2.3.0: invoices for the company's own services and partners.

Reads its token file once at start (account and token per line, `#` comments allowed); every
call but /health needs `Authorization: Bearer <token>`.
  GET /health        {"status": "ok", "service": "billing-api", "instance": ...}
  GET /v1/whoami     {"account": ...}            (401 without a valid token)
  GET /v1/invoices   {"account": ..., "open": N}
"""
import json
import logging
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "2.3.0"
TOKENS = sys.argv[1] if len(sys.argv) > 1 else "/etc/billing-api/tokens"
PORT = 8080

logging.basicConfig(filename="/var/log/billing-api/access.log", format="%(asctime)s %(levelname)s %(message)s",
                    datefmt="%Y-%m-%dT%H:%M:%S%z", level=logging.INFO)
log = logging.getLogger("billing-api")

accounts = {}
with open(TOKENS) as f:
    for line in f:
        line = line.split("#", 1)[0].split()
        if len(line) == 2:
            accounts[line[1]] = line[0]
with open("/var/lib/billing-api/instance-id") as f:
    INSTANCE = f.read().strip()


class Handler(BaseHTTPRequestHandler):
    server_version = f"billing-api/{VERSION}"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def send_json(self, status, obj):
        body = (json.dumps(obj) + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/health":
            return self.send_json(200, {"status": "ok", "service": "billing-api", "version": VERSION, "instance": INSTANCE})
        auth = self.headers.get("Authorization", "")
        account = accounts.get(auth[7:].strip()) if auth.startswith("Bearer ") else None
        if account is None:
            log.warning("401 %s %s: no valid token", self.client_address[0], path)
            return self.send_json(401, {"error": "unauthorized"})
        if path == "/v1/whoami":
            return self.send_json(200, {"account": account})
        if path == "/v1/invoices":
            return self.send_json(200, {"account": account, "open": len(account) * 3 % 17})
        return self.send_json(404, {"error": "not found"})

    def log_message(self, fmt, *args):
        log.info("%s %s", self.client_address[0], fmt % args)


class Server(ThreadingHTTPServer):
    daemon_threads = True


httpd = Server(("0.0.0.0", PORT), Handler)
log.info("billing-api %s starting: %d accounts, instance %s", VERSION, len(accounts), INSTANCE)
httpd.serve_forever()
