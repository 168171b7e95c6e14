#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: start
# ingestd, read why it failed, fix that, start again, until it runs. Each error names its cause:
# the loader's missing library, a journal it may not open, a port already taken.
set -uo pipefail
log=/var/log/ingestd/startup.log
for round in 1 2 3 4 5; do
  : >"$log"
  service ingestd start
  # Up, or dead? (On a loaded host the service script's half-second look can be too early.)
  up=""
  for _ in $(seq 20); do
    if curl -s --max-time 1 -o /dev/null http://127.0.0.1:7070/ && [ -s /run/ingestd.pid ] && kill -0 "$(cat /run/ingestd.pid)" 2>/dev/null; then up=1; break; fi
    grep -q . "$log" && grep -qv 'listening on' "$log" && break
    sleep 0.5
  done
  [ -n "$up" ] && break
  err=$(grep -v '^$' "$log" | tail -n1); echo "round $round: $err"
  case "$err" in
    *"error while loading shared libraries"*)
      lib=$(ldd /usr/sbin/ingestd | awk '/not found/ {print $1; exit}')
      dir=$(dirname "$(find /usr/lib /lib -name "$lib" 2>/dev/null | head -n1)")
      echo "$lib is in $dir"; ls -la /etc/ld.so.conf.d
      for f in /etc/ld.so.conf.d/*; do case "$f" in *.conf) ;; *) grep -qx "$dir" "$f" && rm -f "$f" ;; esac; done
      grep -qx "$dir" /etc/ld.so.conf.d/*.conf 2>/dev/null || printf '# ingestd private libraries\n%s\n' "$dir" >/etc/ld.so.conf.d/ingestd.conf
      ldconfig ;;
    *"cannot open"*"Permission denied"*)
      ls -ln /var/spool/ingestd
      # Numbers instead of names: files from another host's uid. They belong to ingestd here.
      chown -R ingestd:ingestd /var/spool/ingestd ;;
    *"Address already in use"*)
      ss -ltn 'sport = :7070'
      ps -eo pid=,user=,args= | awk '/7070/ && !/awk/' | while read -r pid user args; do
        echo "port 7070 is held by $pid ($user): $args"; kill "$pid"
      done
      sleep 0.5 ;;
    *) echo "unknown failure"; exit 1 ;;
  esac
done
# Wait until it answers (a loaded host may take a few seconds to start it).
for _ in $(seq 40); do curl -sS --max-time 2 -d batch=test http://127.0.0.1:7070/ && exit 0; sleep 0.5; done
exit 1
