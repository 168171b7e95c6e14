#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: read why
# stockd does not start, ask ldd what is missing, find where the library lives, tell the loader
# (a file in /etc/ld.so.conf.d named *.conf, then ldconfig), start stockd.
set -uo pipefail
service stockd start
cat /var/log/stockd/startup.log
ldd /usr/sbin/stockd
lib=$(ldd /usr/sbin/stockd | awk '/not found/ {print $1; exit}')
[ -n "$lib" ] || { echo "ldd finds every library"; exit 1; }
dir=$(dirname "$(find /usr/lib /usr/lib64 /lib -name "$lib" 2>/dev/null | head -n1)")
echo "$lib lives in $dir"
ls -la /etc/ld.so.conf.d; grep -r . /etc/ld.so.conf.d/
# Whatever stockd's loader file is now called or says, one *.conf file names the right directory.
for f in /etc/ld.so.conf.d/*; do
  case "$f" in *.conf) ;; *) grep -q stockd "$f" && { echo "$f is skipped by include *.conf"; rm -f "$f"; } ;; esac
done
grep -rlx "$dir" /etc/ld.so.conf.d/*.conf >/dev/null 2>&1 || printf '# stockd private libraries\n%s\n' "$dir" >/etc/ld.so.conf.d/stockd.conf
grep -rl stockd /etc/ld.so.conf.d/*.conf | while read -r f; do sed -i "\\|^/.*stockd.*|c\\$dir" "$f"; done
ldconfig
ldconfig -p | grep "$lib"
service stockd restart || exit 1
# Wait until it answers (a loaded host may take a few seconds to start it).
for _ in $(seq 40); do curl -sS --max-time 2 http://127.0.0.1:9100/ && exit 0; sleep 0.5; done
exit 1
