#!/usr/bin/python3
"""billing-api 1.9: invoices for the shop's front ends.

Reads /etc/billing-api/billing-api.conf (or the file given as the first argument) and serves
  GET /health              {"status": "ok", "instance": ...}
  GET /v1/invoices/<id>    the invoice
"""
import configparser
import json
import logging
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "1.9.4"
CONF = sys.argv[1] if len(sys.argv) > 1 else "/etc/billing-api/billing-api.conf"
conf = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
if not conf.read(CONF):
    sys.stderr.write(f"billing-api: cannot read {CONF}\n")
    sys.exit(78)
logging.basicConfig(filename=conf.get("log", "file", fallback="/var/log/billing-api/billing-api.log"),
                    format="%(asctime)s %(levelname)s %(message)s", datefmt="%Y-%m-%dT%H:%M:%S%z", level=logging.INFO)
log = logging.getLogger("billing-api")
bind = conf.get("server", "bind", fallback="0.0.0.0").strip()
port = conf.getint("server", "port", fallback=8080)
with open(conf.get("data", "invoices", fallback="/var/lib/billing-api/invoices.json")) as f:
    INVOICES = {i["id"]: i for i in json.load(f)}
with open(conf.get("data", "instance_id_file", fallback="/var/lib/billing-api/instance-id")) as f:
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
        key = path[len("/v1/invoices/"):] if path.startswith("/v1/invoices/") else None
        if key in INVOICES:
            return self.send_json(200, INVOICES[key])
        return self.send_json(404, {"error": "not found"})

    def log_message(self, fmt, *args):
        log.info("%s %s", self.client_address[0], fmt % args)


class Server(ThreadingHTTPServer):
    daemon_threads = True


try:
    httpd = Server((bind, port), Handler)
except OSError as e:
    log.error("cannot listen on %s:%s: %s", bind, port, e)
    sys.exit(1)
log.info("billing-api %s listening on %s:%d, %d invoices", VERSION, bind, port, len(INVOICES))
try:
    httpd.serve_forever()
except KeyboardInterrupt:
    pass
