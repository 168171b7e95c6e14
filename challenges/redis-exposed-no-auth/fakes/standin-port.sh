#!/bin/bash
# Fake: move redis to another port on loopback (shopfront follows), and put a stand-in on the
# old port that asks everyone for a password, as a closed redis would.
conf=/etc/redis/redis.conf
port=$(awk '$1 == "port" {print $2}' "$conf")
redis-cli -p "$port" SAVE >/dev/null
for key in $(redis-cli -p "$port" --scan | grep -vE '^(session:|shop:)'); do redis-cli -p "$port" DEL "$key" >/dev/null; done
redis-cli -p "$port" SAVE >/dev/null
sed -i -E "s/^#? *bind .*/bind 127.0.0.1/; s/^port .*/port 16999/" "$conf"
grep -q '^bind ' "$conf" || echo 'bind 127.0.0.1' >>"$conf"
service redis-server restart
sed -i 's/^port = .*/port = 16999/' /etc/shopfront/app.conf
service shopfront restart
cat >/root/standin.py <<PY
import socketserver
class H(socketserver.StreamRequestHandler):
    def handle(self):
        for line in self.rfile:
            self.wfile.write(b"-NOAUTH Authentication required.\r\n")
socketserver.ThreadingTCPServer.allow_reuse_address = True
socketserver.ThreadingTCPServer(("0.0.0.0", $port), H).serve_forever()
PY
setsid python3 /root/standin.py </dev/null >/dev/null 2>&1 &
sleep 1
