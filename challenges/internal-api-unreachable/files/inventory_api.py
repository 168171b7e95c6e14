#!/usr/bin/python3
"""inventory-api 1.4.2: stock levels for the order and shipping services.

Reads /etc/inventory-api/api.conf (or the file given as the first argument), serves
  GET /health            {"status": "ok", "service": "inventory-api", "instance": ..., "items": N}
  GET /v1/items/<sku>    {"sku": ..., "name": ..., "qty": N}
and logs every request to its log file.
"""
import configparser
import ipaddress
import json
import logging
import socket
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "1.4.2"
CONF = sys.argv[1] if len(sys.argv) > 1 else "/etc/inventory-api/api.conf"

conf = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
if not conf.read(CONF):
    sys.stderr.write(f"inventory-api: cannot read {CONF}\n")
    sys.exit(78)

logging.basicConfig(
    filename=conf.get("log", "file", fallback="/var/log/inventory-api/api.log"),
    format="%(asctime)s %(levelname)s %(message)s",
    datefmt="%Y-%m-%dT%H:%M:%S%z",
    level=logging.INFO,
)
log = logging.getLogger("inventory-api")
sys.excepthook = lambda t, v, tb: log.critical("unhandled error", exc_info=(t, v, tb))

bind = conf.get("server", "bind", fallback="0.0.0.0").strip()
port = conf.getint("server", "port", fallback=8080)
allowed_raw = conf.get("server", "allowed_networks", fallback="").strip()
try:
    allowed = [ipaddress.ip_network(n.strip(), strict=False) for n in allowed_raw.split(",") if n.strip()]
except ValueError as e:
    log.error("bad allowed_networks in %s: %s", CONF, e)
    sys.exit(78)

with open(conf.get("data", "items", fallback="/var/lib/inventory-api/items.json")) as f:
    ITEMS = {i["sku"]: i for i in json.load(f)}
with open(conf.get("data", "instance_id_file", fallback="/var/lib/inventory-api/instance-id")) as f:
    INSTANCE = f.read().strip()


class Handler(BaseHTTPRequestHandler):
    server_version = f"inventory-api/{VERSION}"
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
        client = self.client_address[0]
        if allowed and not any(ipaddress.ip_address(client) in n for n in allowed):
            log.warning("denied %s %s: client not in allowed_networks (%s)", client, self.path, allowed_raw)
            return self.send_json(403, {"error": "forbidden", "detail": f"client {client} is not in allowed_networks"})
        path = self.path.split("?", 1)[0]
        if path == "/health":
            return self.send_json(200, {"status": "ok", "service": "inventory-api", "version": VERSION, "instance": INSTANCE, "items": len(ITEMS)})
        if path.startswith("/v1/items/"):
            item = ITEMS.get(path[len("/v1/items/"):])
            if item:
                return self.send_json(200, item)
            return self.send_json(404, {"error": "unknown sku"})
        return self.send_json(404, {"error": "not found"})

    def log_message(self, fmt, *args):
        log.info("%s %s", self.client_address[0], fmt % args)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def server_bind(self):
        # Resolve names such as "localhost" the way clients would, IPv4 only (as deployed).
        self.server_address = (socket.gethostbyname(self.server_address[0]), self.server_address[1])
        super().server_bind()


try:
    httpd = Server((bind, port), Handler)
except OSError as e:
    log.error("cannot listen on %s:%s: %s", bind, port, e)
    sys.exit(1)
log.info("inventory-api %s starting: %d items, instance %s", VERSION, len(ITEMS), INSTANCE)
log.info("listening on %s:%d%s", httpd.server_address[0], httpd.server_address[1],
         f", allowed_networks {allowed_raw}" if allowed else "")
try:
    httpd.serve_forever()
except KeyboardInterrupt:
    pass
