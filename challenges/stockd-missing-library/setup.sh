#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment, fed on stdin,
# never stored there). stockd needs libstockfmt.so.1 from /usr/lib/stockd/lib, found through
# /etc/ld.so.conf.d. A clean-up of /etc broke that one of four ways (FAULTLINE_FAULT forces
# which), and rebuilt the loader's cache: the file was deleted, it names a wrong directory, it
# was renamed so the *.conf include skips it, or it is right but the cache was built without it.
# The instance id is random. Prints the values the check needs as JSON on its last line.
set -euo pipefail
faults=(conf_deleted wrong_dir renamed stale_cache)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
conf=/etc/ld.so.conf.d/stockd.conf
service stockd stop >/dev/null 2>&1 || true
instance=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
echo "$instance" >/var/lib/stockd/instance-id
chown stockd:stockd /var/lib/stockd/instance-id

case "$fault" in
  conf_deleted) rm -f "$conf"; ldconfig ;;
  wrong_dir)
    sed -i "s|^/usr/lib/stockd/lib\$|$(shuf -n1 -e /usr/lib/stockd/libs /usr/lib64/stockd /usr/local/lib/stockd /opt/stockd/lib /usr/lib/stockd)|" "$conf"
    ldconfig ;;
  renamed)
    mv "$conf" "$conf$(shuf -n1 -e .dpkg-old .bak .disabled .orig)"; ldconfig ;;
  stale_cache)
    mv "$conf" /root/.stockd.conf.tmp; ldconfig; mv /root/.stockd.conf.tmp "$conf" ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
printf 'cd /etc/ld.so.conf.d\nls -la\nldconfig\nservice stockd restart\nexit\n' >/root/.bash_history
service stockd start >/dev/null 2>&1 || true
if curl -s --max-time 2 -o /dev/null http://127.0.0.1:9100/; then echo "setup: fault $fault left stockd running" >&2; exit 1; fi
printf '{"fault":"%s","instance":"%s"}\n' "$fault" "$instance"
