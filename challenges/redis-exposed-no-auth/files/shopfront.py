#!/usr/bin/python3
"""shopfront 3.1.4: the shop's web front; customers' sessions live in redis.

Reads /etc/shopfront/app.conf (or the file given as the first argument) once at start:
  [redis] host, port, password (empty: no AUTH)
Serves GET /health {"status", "redis", "instance", "sessions", "keys"} on port 8080.
"""
import configparser
import json
import socket
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "3.1.4"
conf = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
if not conf.read(sys.argv[1] if len(sys.argv) > 1 else "/etc/shopfront/app.conf"):
    sys.exit("shopfront: cannot read its configuration")
HOST = conf.get("redis", "host", fallback="127.0.0.1").strip()
PORT = conf.getint("redis", "port", fallback=6379)
PASSWORD = conf.get("redis", "password", fallback="").strip()


def command(f, *args):
    """Sends one RESP command, returns the reply (str, int, list or RuntimeError for -ERR)."""
    out = b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a.encode()), a.encode()) for a in args)
    f.write(out)
    f.flush()
    return reply(f)


def reply(f):
    line = f.readline().rstrip(b"\r\n")
    kind, rest = line[:1], line[1:].decode()
    if kind == b"+":
        return rest
    if kind == b"-":
        raise RuntimeError(rest)
    if kind == b":":
        return int(rest)
    if kind == b"$":
        n = int(rest)
        return None if n < 0 else f.read(n + 2)[:-2].decode()
    if kind == b"*":
        return [reply(f) for _ in range(int(rest))]
    raise RuntimeError("unexpected reply from redis")


def cache_state():
    with socket.create_connection((HOST, PORT), timeout=2) as s:
        f = s.makefile("rwb")
        if PASSWORD:
            command(f, "AUTH", PASSWORD)
        instance = command(f, "GET", "shop:instance")
        sessions = 0
        cursor = "0"
        while True:
            cursor, keys = command(f, "SCAN", cursor, "MATCH", "session:*", "COUNT", "500")
            sessions += len(keys)
            if cursor == "0":
                break
        return {"instance": instance, "sessions": sessions, "keys": command(f, "DBSIZE")}


class Handler(BaseHTTPRequestHandler):
    server_version = f"shopfront/{VERSION}"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.path != "/health":
            code, body = 404, {"error": "not found"}
        else:
            try:
                code, body = 200, {"status": "ok", "redis": "ok", **cache_state()}
            except (OSError, RuntimeError, ValueError) as e:
                code, body = 503, {"status": "degraded", "redis": f"error: {e}"}
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


Server(("0.0.0.0", 8080), Handler).serve_forever()
