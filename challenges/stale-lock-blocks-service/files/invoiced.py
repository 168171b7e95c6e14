#!/usr/bin/python3
"""invoiced 4.2: the billing service's HTTP API (GET /health, GET /v1/invoices/<id>).

Only one invoiced (or invoice-export run) may work on the ledger at a time: each takes an
exclusive flock on /run/invoiced/invoiced.lock and keeps it while it runs.
"""
import fcntl
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = "/run/invoiced/invoiced.lock"
LOG = "/var/log/invoiced/invoiced.log"
log = open(LOG, "a", buffering=1)


def say(level, msg):
    log.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S%z')} {level} {msg}\n")


lock = open(LOCK, "a")
for attempt in range(3):
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        break
    except BlockingIOError:
        time.sleep(0.3)
else:
    say("ERROR", f"{LOCK} is locked by another process: another invoiced or an export is running; refusing to start")
    sys.exit(75)
with open("/var/lib/invoiced/instance-id") as f:
    INSTANCE = f.read().strip()


class Handler(BaseHTTPRequestHandler):
    server_version = "invoiced/4.2"
    sys_version = ""

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/health":
            body, code = {"status": "ok", "service": "invoiced", "instance": INSTANCE}, 200
        elif path.startswith("/v1/invoices/"):
            body, code = {"id": path.rsplit("/", 1)[1], "status": "issued"}, 200
        else:
            body, code = {"error": "not found"}, 404
        data = (json.dumps(body) + "\n").encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, fmt, *args):
        say("INFO", f"{self.client_address[0]} {fmt % args}")


httpd = ThreadingHTTPServer(("0.0.0.0", 8080), Handler)
say("INFO", f"invoiced 4.2 started (pid {os.getpid()}), holding {LOCK}")
httpd.serve_forever()
