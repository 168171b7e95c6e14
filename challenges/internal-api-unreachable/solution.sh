#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: look at
# what listens where, read the service's log and configuration, put the configuration back to
# what the clients expect (all addresses, port 8080, no allow list that excludes them), free
# port 8080 from whatever else holds it, restart, and test through the network address.
set -uo pipefail
conf=/etc/inventory-api/api.conf
ss -ltn
ps -eo pid,user,args
service inventory-api status
tail -n 5 /var/log/inventory-api/api.log
grep -E '^(bind|port|allowed_networks) *=' "$conf"

sed -i -e 's/^bind *=.*/bind = 0.0.0.0/' -e 's/^port *=.*/port = 8080/' -e 's/^allowed_networks *=.*/allowed_networks =/' "$conf"

# Whatever else sits on 8080 goes. Its owner is another user, so ss cannot name the process:
# ps shows which program was started with that port (and inventory-api is stopped first).
service inventory-api stop
if ss -Hltn 'sport = :8080' | grep -q .; then
  ps -eo pid=,user=,args= | awk '/8080/ && !/awk/' | while read -r pid user args; do
    echo "port 8080 is held by pid $pid ($user): $args"
    kill "$pid"
  done
fi
sleep 0.5

service inventory-api restart || exit 1
ip=$(ip -4 -o addr show scope global | awk '{split($4, a, "/"); print a[1]; exit}')
for _ in 1 2 3 4 5; do curl -sS --max-time 5 "http://$ip:8080/health" && exit 0; sleep 1; done
exit 1
