#!/usr/bin/python3
"""shorturl 2.3: the company's link shortener.

  GET  /<slug>   301 to the link's target (404 when unknown)
  POST /         body "url=<target>" (or the URL itself): saves a new link, 201 with its slug
  GET  /health   {"status": "ok", ...}

Links are appended to the links file (one "slug<TAB>url" per line). Like sshd's StrictModes, it
refuses data, run and log places that other users may write: a link store anyone can rewrite is
an open redirector.
"""
import configparser
import json
import os
import secrets
import stat
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

VERSION = "2.3.1"
CONF = sys.argv[1] if len(sys.argv) > 1 else "/etc/shorturl/shorturl.conf"


def die(msg):
    sys.stderr.write(f"shorturl: {msg}\n")
    sys.stderr.flush()
    sys.exit(1)


conf = configparser.ConfigParser(inline_comment_prefixes=("#",))
if not conf.read(CONF):
    die(f"cannot read {CONF}")
port = conf.getint("server", "port", fallback=8080)
links_path = conf.get("data", "links", fallback="/var/lib/shorturl/links.tsv")
run_dir = conf.get("server", "run_dir", fallback="/run/shorturl")
log_path = conf.get("log", "file", fallback="/var/log/shorturl/shorturl.log")


def strict(path):
    st = os.stat(path)
    if st.st_mode & stat.S_IWOTH:
        die(f"refusing to use {path}: it is writable by other users (mode {stat.S_IMODE(st.st_mode):o})")


try:
    log = open(log_path, "a", buffering=1)
except OSError as e:
    die(f"cannot open log {log_path}: {e.strerror}")
sys.stderr = log
for p in (os.path.dirname(links_path), links_path, run_dir, os.path.dirname(log_path), log_path):
    if os.path.exists(p):
        strict(p)

LINKS = {}
try:
    with open(links_path) as f:
        for line in f:
            slug, _, url = line.rstrip("\n").partition("\t")
            if slug and url:
                LINKS[slug] = url
    store = open(links_path, "a", buffering=1)
except OSError as e:
    die(f"cannot open link store {links_path}: [Errno {e.errno}] {e.strerror}")
try:
    with open(os.path.join(run_dir, "shorturl.pid"), "w") as f:
        f.write(f"{os.getpid()}\n")
except OSError as e:
    die(f"cannot write pid file in {run_dir}: [Errno {e.errno}] {e.strerror}")


class Handler(BaseHTTPRequestHandler):
    server_version = f"shorturl/{VERSION}"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def reply(self, status, body, headers=()):
        data = body.encode()
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/health":
            return self.reply(200, json.dumps({"status": "ok", "service": "shorturl", "links": len(LINKS)}) + "\n")
        url = LINKS.get(path.lstrip("/"))
        if url:
            return self.reply(301, f"{url}\n", [("Location", url)])
        return self.reply(404, "unknown link\n")

    def do_POST(self):
        raw = self.rfile.read(min(int(self.headers.get("Content-Length") or 0), 4096)).decode("utf-8", "replace")
        url = (parse_qs(raw).get("url") or [raw])[0].strip()
        if not url.startswith(("http://", "https://")) or any(c in url for c in "\t\n\r"):
            return self.reply(400, "give url=http(s)://...\n")
        slug = secrets.token_urlsafe(5)
        try:
            store.write(f"{slug}\t{url}\n")
        except OSError as e:
            log.write(f"ERROR cannot save link: {e}\n")
            return self.reply(500, "cannot save link\n")
        LINKS[slug] = url
        return self.reply(201, f"{slug}\n", [("Location", f"/{slug}")])

    def log_message(self, fmt, *args):
        log.write(f"{self.log_date_time_string()} {self.client_address[0]} {fmt % args}\n")


try:
    httpd = ThreadingHTTPServer(("0.0.0.0", port), Handler)
except OSError as e:
    die(f"cannot listen on port {port}: {e.strerror}")
log.write(f"shorturl {VERSION} listening on 0.0.0.0:{port} with {len(LINKS)} links\n")
httpd.serve_forever()
