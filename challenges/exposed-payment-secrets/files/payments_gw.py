#!/usr/bin/python3
"""payments-gw 1.9.2: forwards the shop's payment requests to the payment provider.

Reads its credentials (/etc/payments-gw/credentials.ini: [provider] api_key, [database]
password) and its TLS key (/etc/payments-gw/tls/key.pem) once at start, as user `payments`.
Serves GET /health {"status", "instance", "credentials", "api_key", "database", "tls_key"} on port
8443 (plain HTTP inside the network; the key signs the provider's callbacks): the secrets it runs
with appear there only as short fingerprints (the first 12 hex digits of their SHA-256).
"""
import configparser
import hashlib
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "1.9.2"
conf = configparser.ConfigParser()
if not conf.read("/etc/payments-gw/credentials.ini"):
    sys.exit("payments-gw: cannot read /etc/payments-gw/credentials.ini")
API_KEY = conf.get("provider", "api_key")
DB_PASSWORD = conf.get("database", "password")
with open("/etc/payments-gw/tls/key.pem", "rb") as f:
    KEY_ID = hashlib.sha256(f.read()).hexdigest()[:12]
with open("/var/lib/payments-gw/instance-id") as f:
    INSTANCE = f.read().strip()


def fingerprint(secret):
    return hashlib.sha256(secret.encode()).hexdigest()[:12]


class Handler(BaseHTTPRequestHandler):
    server_version = f"payments-gw/{VERSION}"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.path == "/health":
            code, body = 200, {"status": "ok", "instance": INSTANCE, "credentials": "loaded", "api_key": fingerprint(API_KEY),
                               "database": fingerprint(DB_PASSWORD), "tls_key": KEY_ID}
        else:
            code, body = 404, {"error": "not found"}
        data = (json.dumps(body) + "\n").encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True


Server(("0.0.0.0", 8443), Handler).serve_forever()
