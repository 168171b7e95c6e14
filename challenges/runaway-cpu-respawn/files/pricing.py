#!/usr/bin/python3
"""pricing-api 3.1: quotes for the web shop. GET /health, GET /v1/quote/<sku>."""
import hashlib
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

with open("/var/lib/pricing/instance-id") as f:
    INSTANCE = f.read().strip()


class Handler(BaseHTTPRequestHandler):
    server_version = "pricing-api/3.1"
    sys_version = ""

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/health":
            body = {"status": "ok", "service": "pricing-api", "instance": INSTANCE}
        elif path.startswith("/v1/quote/"):
            sku = path[len("/v1/quote/"):]
            cents = 500 + int(hashlib.sha256(sku.encode()).hexdigest()[:6], 16) % 20000
            body = {"sku": sku, "price_cents": cents}
        else:
            body = {"error": "not found"}
        data = (json.dumps(body) + "\n").encode()
        self.send_response(200 if "error" not in body else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("0.0.0.0", int(sys.argv[1]) if len(sys.argv) > 1 else 8080), Handler).serve_forever()
