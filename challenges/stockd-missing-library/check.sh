#!/bin/bash
# Grading: runs in the grader beside stock01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of stock01's. Live and after a reboot:
#   what the dashboards see: http://stock01:9100/ from another host, with this deployment's
#     instance;
#   who answers: port 9100 is held only by the system's /usr/sbin/stockd, started the usual way as
#     its user, with no loader variable in its environment and every library it maps from the
#     read-only system (the vendor's library, not a copy in /usr/local);
#   after a reboot, also the loader's configuration as ldconfig reads it (inspect.sh): a cache
#     built from /etc/ld.so.conf and what it includes finds libstockfmt.so.1 in the vendor's
#     directory, and only there. A one-off `ldconfig DIR` or a cache edited by hand is gone at the
#     next ldconfig run: it is not a fix.
# Environment: FL_TARGET, FL_INSTANCE (chosen by setup.sh), FL_PHASE, FL_INSPECTION (boot).
if [ "$FL_PHASE" = boot ]; then
  lib=/usr/lib/stockd/lib/libstockfmt.so.1
  found=$(grep -E '^[[:space:]]*libstockfmt\.so\.1 ' <<<"${FL_INSPECTION:-}" || true)
  grep -qx ldconfig-failed <<<"${FL_INSPECTION:-}" && refuse "ldconfig cannot read the loader's configuration (/etc/ld.so.conf and what it includes)."
  [ -n "$found" ] || refuse "The loader's configuration (/etc/ld.so.conf and what it includes) does not lead ldconfig to libstockfmt.so.1: the next ldconfig run leaves stockd without its library."
  while read -r line; do
    [ "${line##*=> }" = "$lib" ] || refuse "The loader's configuration leads ldconfig to another libstockfmt.so.1 (${line##*=> }) than the vendor's, as installed."
  done <<<"$found"
fi
body=$(fetch "http://${FL_TARGET}:9100/" -sS --max-time 5 2>&1) ||
  refuse "Nothing answers at http://${FL_TARGET}:9100/: stockd is not running (${body#curl: })."
[[ "$body" == *"\"instance\": \"$FL_INSTANCE\""* ]] || refuse "Something answers at http://${FL_TARGET}:9100/, but not this host's stockd."
pids=$(fl service 9100 /usr/sbin/stockd --argv '["/usr/sbin/stockd","/etc/stockd.conf"]' --config /etc/stockd.conf) || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = stockd ] || refuse "stockd runs as $user: start it with its service script, as the user stockd."
done
echo "stockd answers again, with the vendor's library found through the loader's configuration."
