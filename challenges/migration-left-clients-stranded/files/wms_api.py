#!/usr/bin/python3
"""wms-api 5.1: the warehouse management API for the hand scanners, with a Prometheus-style metrics endpoint.

Reads /etc/wms-api/wms-api.conf (or the file given as the first argument) and serves
  port:          GET /health  {"status": "ok", "instance": ...}   GET /v1/stock/<id>
  metrics_port:  GET /metrics (text), for the monitoring server only (the host firewall says so)
"""
import configparser
import json
import logging
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "5.1.2"
CONF = sys.argv[1] if len(sys.argv) > 1 else "/etc/wms-api/wms-api.conf"
conf = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
if not conf.read(CONF):
    sys.stderr.write(f"wms-api: cannot read {CONF}\n")
    sys.exit(78)
logging.basicConfig(filename=conf.get("log", "file", fallback="/var/log/wms-api/wms-api.log"),
                    format="%(asctime)s %(levelname)s %(message)s", datefmt="%Y-%m-%dT%H:%M:%S%z", level=logging.INFO)
log = logging.getLogger("wms-api")
bind = conf.get("server", "bind", fallback="0.0.0.0").strip()
port = conf.getint("server", "port", fallback=8080)
metrics_port = conf.getint("server", "metrics_port", fallback=9100)
with open(conf.get("data", "orders", fallback="/var/lib/wms-api/stock.json")) as f:
    ORDERS = {o["id"]: o for o in json.load(f)}
with open(conf.get("data", "instance_id_file", fallback="/var/lib/wms-api/instance-id")) as f:
    INSTANCE = f.read().strip()
served = {"requests": 0}


class Base(BaseHTTPRequestHandler):
    server_version = f"wms-api/{VERSION}"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def send(self, status, ctype, body):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        log.info("%s %s", self.client_address[0], fmt % args)


class Api(Base):
    def do_GET(self):
        served["requests"] += 1
        path = self.path.split("?", 1)[0]
        if path == "/health":
            body = {"status": "ok", "service": "wms-api", "version": VERSION, "instance": INSTANCE}
            return self.send(200, "application/json", (json.dumps(body) + "\n").encode())
        if path.startswith("/v1/stock/") and path[len("/v1/stock/"):] in ORDERS:
            return self.send(200, "application/json", (json.dumps(ORDERS[path[len("/v1/stock/"):]]) + "\n").encode())
        return self.send(404, "application/json", b'{"error": "not found"}\n')


class Metrics(Base):
    def do_GET(self):
        text = f'wms_api_requests_total {served["requests"]}\nwms_api_orders {len(ORDERS)}\nwms_api_info{{instance="{INSTANCE}"}} 1\n'
        return self.send(200, "text/plain; version=0.0.4", text.encode())


class Server(ThreadingHTTPServer):
    daemon_threads = True


try:
    api = Server((bind, port), Api)
    metrics = Server((bind, metrics_port), Metrics)
except OSError as e:
    log.error("cannot listen on %s: %s", bind, e)
    sys.exit(1)
log.info("wms-api %s listening on %s:%d (metrics on port %d), %d orders", VERSION, bind, port, metrics_port, len(ORDERS))
threading.Thread(target=metrics.serve_forever, daemon=True).start()
try:
    api.serve_forever()
except KeyboardInterrupt:
    pass
