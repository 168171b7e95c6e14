#!/bin/bash
# Grading: runs in the grader beside wh02 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of wh02's. The player holds NET_ADMIN (routes, packet filters),
# so the check also refuses any listener it does not expect (fl quiet-net). It asks, live and
# after a boot of a copy:
#   what the scanners see: wms-api answers at http://wh02:<port> from another host of wh02's
#     network (the grader calls from an address picked at random), with this deployment's data;
#     the metrics port does NOT answer that host (the firewall stays on);
#   who answers: both ports are held by the system's wms-api program, as its own user, on every
#     address; nothing else listens;
#   where replies go, for EVERY address of wh02's network: live, by the main routing table as the
#     kernel holds it; after a boot, by the kernel itself (inspect.sh applied routes.d as the boot
#     does and asked `ip route get` for each neighbour); the routes other teams need stay;
#   what the firewall is, live (the rules in force, read in wh02's network namespace, nothing else
#     of the network stack in the way: fl network_as_built) and after a boot (rules.v4 loaded
#     with the image's iptables-restore as the boot does), judged rule by rule as the kernel
#     applies them: the API open to every address of
#     wh02's network, metrics only to the monitoring server, other ports to no one; the boot's own
#     scripts are the installed ones.
# The written answer (the old address and network) is judged by the platform (challenge.yaml).
# Environment (setup.sh): FL_TARGET, FL_PORT, FL_METRICS, FL_INSTANCE, FL_ITEM, FL_NET,
# FL_ADDRESS, FL_KEEP; FL_INSPECTION (boot). Exit 0 = fixed; stdout = feedback.
base="http://${FL_TARGET}:${FL_PORT}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
me=$(hostname -i 2>/dev/null | awk '{print $1}')

# The firewall judged rule by rule (after a boot as the boot loads it, live as in force), before
# anything is called: /tmp/firewall.py (server/runtime/grader/firewall.py).
api_probe=yes
if [ "$FL_PHASE" = boot ]; then
  firewall=${FL_INSPECTION%%$'\n'---routing*}
  verdict=$(FL_INSPECTION=$firewall GRADER_ADDRESS=$me python3 -I -S /tmp/firewall.py "the scanners") || refuse "${verdict:-The grader could not judge the firewall rules: not graded.}"
  # The copy is on a network of its own: the grader calls the API only where the rules admit it.
  [ "$verdict" = "grader admitted" ] || api_probe=no
else
  # Live: iptables-save's account of the rules in force, read inside wh02's network namespace.
  verdict=$(python3 -I -S /tmp/firewall.py "the scanners") || refuse "${verdict:-The grader could not judge the firewall rules: not graded.}"
fi


# Who answers (the system's program as its own user, on every address), nothing else listening or
# in the way on the network stack, the boot's own scripts, the metrics port closed to this host:
# fl.network_service (server/runtime/grader/fl/60-network-client.py).
who=$(python3 -I -S - <<'PY'
import sys
sys.path.insert(0, "/tmp")
import fl
fl.judged(fl.network_service, "wms-api", "wms", ["PORT", "METRICS"], private="METRICS", firewall=("ip", "filter"),
          argv=["/usr/bin/python3", "-I", "-S", "/usr/lib/wms-api/wms_api.py", "/etc/wms-api/wms-api.conf"],
          config=["/etc/wms-api", "/etc/wms-api/wms-api.conf"],
          boot_files=["/etc/alternatives/iptables", "/etc/alternatives/iptables-restore", "/etc/alternatives/iptables-save"])
PY
) || refuse "${who:-The grader could not judge who answers: not graded.}"

# Where replies to every neighbour go (live: the main table; after a boot: the kernel's decision):
# /tmp/routes.py (server/runtime/grader/routes.py).
routing=${FL_INSPECTION:-}
routing=${routing#*$'\n'---routing$'\n'}
verdict=$(FL_INSPECTION=$routing python3 -I -S /tmp/routes.py wh02 "the scanners") || refuse "${verdict:-The grader could not judge the routing: not graded.}"
# Last, what the clients see, from the one address the grader drew: the judgements above cover
# every address, so a broken system always gets the same first sentence whatever the draw.
if [ "$api_probe" = yes ]; then
  api_answers "$base" wms-api "/v1/stock/$FL_ITEM" "$FL_ITEM" \
    "The scanners' connections to $base are refused (from another host of wh02's network)." \
    "The scanners' connections to $base time out: no answer ever comes back to wh02's network." \
    "/health answers, but the stock lookups of $base do not return this host's stock."
fi

echo "The scanners reach wms-api at $base again, the metrics stay private, and nothing of the old site is left to cut them off at the next boot."
