#!/usr/bin/python3
"""catalogd 3.2: serves the product catalogue to the shop's front ends.

At start it checks every data file against MANIFEST.sha256 in its data directory (written by
catalogd whenever it changes a file) and refuses to serve a catalogue that does not match:
a half-written price list is worse than none. Then it serves
  GET /v1/status          {"status": "ok", "catalogue": <first 12 hex of the manifest's sha256>, "files": N}
  GET /v1/products/<id>   one product
"""
import configparser
import hashlib
import json
import logging
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "3.2.0"
CONF = sys.argv[1] if len(sys.argv) > 1 else "/etc/catalogd/catalogd.conf"
conf = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
if not conf.read(CONF):
    sys.stderr.write(f"catalogd: cannot read {CONF}\n")
    sys.exit(78)
logging.basicConfig(filename=conf.get("log", "file", fallback="/var/log/catalogd/catalogd.log"),
                    format="%(asctime)s %(levelname)s %(message)s", datefmt="%Y-%m-%dT%H:%M:%S%z", level=logging.INFO)
log = logging.getLogger("catalogd")
DATA = conf.get("data", "dir", fallback="/var/lib/catalogd")
PORT = conf.getint("server", "port", fallback=8080)


def integrity():
    manifest_path = os.path.join(DATA, "MANIFEST.sha256")
    with open(manifest_path, "rb") as f:
        raw = f.read()
    count = 0
    for line in raw.decode().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        want, name = line.split(None, 1)
        name = name.lstrip("*")
        path = os.path.join(DATA, name)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise SystemExit(f"integrity check failed: {name}: {e.strerror}")
        got = hashlib.sha256(data).hexdigest()
        if got != want:
            raise SystemExit(f"integrity check failed: {name}: sha256 {got[:16]}... does not match MANIFEST.sha256 ({want[:16]}...), {len(data)} bytes")
        count += 1
    return hashlib.sha256(raw).hexdigest()[:12], count


try:
    CATALOGUE, FILES = integrity()
    with open(os.path.join(DATA, "products.json")) as f:
        PRODUCTS = {str(p["id"]): p for p in json.load(f)}
except SystemExit as e:
    log.critical("%s; refusing to start", e)
    sys.exit(1)
except (OSError, ValueError) as e:
    log.critical("cannot load the catalogue: %s; refusing to start", e)
    sys.exit(1)


class Handler(BaseHTTPRequestHandler):
    server_version = f"catalogd/{VERSION}"
    sys_version = ""

    def send_json(self, code, obj):
        body = (json.dumps(obj) + "\n").encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/v1/status":
            return self.send_json(200, {"status": "ok", "version": VERSION, "catalogue": CATALOGUE, "files": FILES})
        if path.startswith("/v1/products/"):
            p = PRODUCTS.get(path[len("/v1/products/"):])
            return self.send_json(200, p) if p else self.send_json(404, {"error": "unknown product"})
        self.send_json(404, {"error": "not found"})

    def log_message(self, fmt, *args):
        log.info("%s %s", self.client_address[0], fmt % args)


class Server(ThreadingHTTPServer):
    daemon_threads = True


try:
    httpd = Server(("0.0.0.0", PORT), Handler)
except OSError as e:
    log.error("cannot listen on port %s: %s", PORT, e)
    sys.exit(1)
log.info("catalogd %s: %d files verified, catalogue %s, listening on port %d", VERSION, FILES, CATALOGUE, PORT)
httpd.serve_forever()
