#!/usr/bin/python3
"""tsdb 0.9: the metrics store behind the ops dashboards.

Keeps every shard file of /var/lib/tsdb/shards open while it runs (one descriptor per shard),
like many databases do with their segments. GET /health says how many shards it serves.
Configuration: /etc/tsdb/tsdb.conf (max_open_files: the descriptor limit tsdb sets for itself,
0 = keep the limit it was started with).
"""
import configparser
import json
import os
import resource
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CONF = sys.argv[1] if len(sys.argv) > 1 else "/etc/tsdb/tsdb.conf"
conf = configparser.ConfigParser(inline_comment_prefixes=("#",))
conf.read(CONF)
port = conf.getint("server", "port", fallback=9090)
shard_dir = conf.get("storage", "shards", fallback="/var/lib/tsdb/shards")
limit = conf.getint("storage", "max_open_files", fallback=0)
log = open(conf.get("log", "file", fallback="/var/log/tsdb/tsdb.log"), "a", buffering=1)


def say(level, msg):
    log.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S%z')} {level} {msg}\n")


if limit:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(limit, hard), hard))
names = sorted(n for n in os.listdir(shard_dir) if n.endswith(".dat"))
say("INFO", f"tsdb 0.9 starting: {len(names)} shards in {shard_dir}")
SHARDS = []
try:
    for n in names:
        SHARDS.append(open(os.path.join(shard_dir, n), "rb"))
except OSError as e:
    say("ERROR", f"cannot open shard: {e}")
    sys.exit(1)
with open("/var/lib/tsdb/instance-id") as f:
    INSTANCE = f.read().strip()


class Handler(BaseHTTPRequestHandler):
    server_version = "tsdb/0.9"
    sys_version = ""

    def do_GET(self):
        body = {"status": "ok", "service": "tsdb", "instance": INSTANCE, "shards": len(SHARDS)} if self.path == "/health" else {"error": "not found"}
        data = (json.dumps(body) + "\n").encode()
        self.send_response(200 if "error" not in body else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


try:
    httpd = ThreadingHTTPServer(("0.0.0.0", port), Handler)
except OSError as e:
    say("ERROR", f"cannot listen on port {port}: {e}")
    sys.exit(1)
say("INFO", f"serving {len(SHARDS)} shards on port {port}")
httpd.serve_forever()
