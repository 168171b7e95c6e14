#!/usr/bin/python3
"""statuspage 2.3: the public status page of the platform, served behind nginx.

Reads /etc/statuspage/statuspage.conf (or the file given as the first argument) and serves
  GET /              the status page (HTML)
  GET /api/status    {"status": ..., "components": [...], "instance": ...}
It listens on the loopback address only: customers reach it through nginx on port 80.
"""
import configparser
import html
import json
import logging
import socket
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "2.3.1"
CONF = sys.argv[1] if len(sys.argv) > 1 else "/etc/statuspage/statuspage.conf"

conf = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
if not conf.read(CONF):
    sys.stderr.write(f"statuspage: cannot read {CONF}\n")
    sys.exit(78)
logging.basicConfig(
    filename=conf.get("log", "file", fallback="/var/log/statuspage/statuspage.log"),
    format="%(asctime)s %(levelname)s %(message)s",
    datefmt="%Y-%m-%dT%H:%M:%S%z",
    level=logging.INFO,
)
log = logging.getLogger("statuspage")
bind = conf.get("server", "bind", fallback="127.0.0.1").strip()
port = conf.getint("server", "port", fallback=8080)
with open(conf.get("data", "components", fallback="/var/lib/statuspage/components.json")) as f:
    COMPONENTS = json.load(f)
with open(conf.get("data", "instance_id_file", fallback="/var/lib/statuspage/instance-id")) as f:
    INSTANCE = f.read().strip()


class Handler(BaseHTTPRequestHandler):
    server_version = f"statuspage/{VERSION}"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def send(self, status, ctype, body):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        overall = "operational" if all(c["status"] == "operational" for c in COMPONENTS) else "degraded"
        if path == "/api/status":
            body = json.dumps({"status": overall, "components": COMPONENTS, "instance": INSTANCE}) + "\n"
            return self.send(200, "application/json", body.encode())
        if path == "/":
            rows = "".join(f"<li>{html.escape(c['name'])}: {html.escape(c['status'])}</li>" for c in COMPONENTS)
            page = (f"<!doctype html><html><head><meta charset=\"utf-8\"><title>Status</title>"
                    f"<meta name=\"instance\" content=\"{INSTANCE}\"></head><body><h1>All systems: {overall}</h1>"
                    f"<ul>{rows}</ul></body></html>\n")
            return self.send(200, "text/html; charset=utf-8", page.encode())
        return self.send(404, "text/plain", b"not found\n")

    def log_message(self, fmt, *args):
        log.info("%s %s", self.client_address[0], fmt % args)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def server_bind(self):
        # Names such as "localhost" or the host's own name resolve as clients would, IPv4 only.
        self.server_address = (socket.gethostbyname(self.server_address[0]), self.server_address[1])
        super().server_bind()


try:
    httpd = Server((bind, port), Handler)
except OSError as e:
    log.error("cannot listen on %s:%s: %s", bind, port, e)
    sys.exit(1)
log.info("statuspage %s listening on %s:%d (instance %s)", VERSION, httpd.server_address[0], port, INSTANCE)
try:
    httpd.serve_forever()
except KeyboardInterrupt:
    pass
