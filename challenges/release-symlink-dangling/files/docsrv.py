#!/usr/bin/python3
"""docsrv 2.3: serves the documentation site from the live release directory.

Reads /etc/docsrv/docsrv.conf (or the file given as the first argument). The site root is a path
such as /srv/docs/current that the deploy tool switches from one release to the next; it is
resolved on every request, so a switch needs no restart.
"""
import configparser
import logging
import mimetypes
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "2.3.1"
CONF = sys.argv[1] if len(sys.argv) > 1 else "/etc/docsrv/docsrv.conf"
conf = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
if not conf.read(CONF):
    sys.stderr.write(f"docsrv: cannot read {CONF}\n")
    sys.exit(78)
logging.basicConfig(filename=conf.get("log", "file", fallback="/var/log/docsrv/docsrv.log"),
                    format="%(asctime)s %(levelname)s %(message)s", datefmt="%Y-%m-%dT%H:%M:%S%z", level=logging.INFO)
log = logging.getLogger("docsrv")
ROOT = conf.get("site", "root", fallback="/srv/docs/current")
PORT = conf.getint("server", "port", fallback=80)


class Handler(BaseHTTPRequestHandler):
    server_version = f"docsrv/{VERSION}"
    sys_version = ""

    def send(self, code, body, ctype="text/plain; charset=utf-8"):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if ".." in path.split("/"):
            return self.send(400, b"bad path\n")
        if path.endswith("/"):
            path += "index.html"
        try:
            real = os.path.realpath(ROOT, strict=True)
        except OSError as e:
            log.error("site root %s is unusable: %s", ROOT, e)
            return self.send(503, b"503 Service Unavailable: the documentation is being updated, try again later.\n")
        if not os.path.isfile(os.path.join(real, "REVISION")):
            log.error("site root %s (%s) has no REVISION: not a release directory", ROOT, real)
            return self.send(503, b"503 Service Unavailable: the documentation is being updated, try again later.\n")
        try:
            with open(os.path.join(real, path.lstrip("/")), "rb") as f:
                body = f.read()
        except FileNotFoundError:
            return self.send(404, b"404 Not Found\n")
        except OSError as e:
            log.error("cannot read %s under %s: %s", path, real, e)
            return self.send(500, b"500 Internal Server Error\n")
        self.send(200, body, mimetypes.guess_type(path)[0] or "application/octet-stream")

    def log_message(self, fmt, *args):
        log.info("%s %s", self.client_address[0], fmt % args)


class Server(ThreadingHTTPServer):
    daemon_threads = True


try:
    httpd = Server(("0.0.0.0", PORT), Handler)
except OSError as e:
    log.error("cannot listen on port %s: %s", PORT, e)
    sys.exit(1)
log.info("docsrv %s serving %s on port %d", VERSION, ROOT, PORT)
httpd.serve_forever()
