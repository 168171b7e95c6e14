#!/bin/bash
# Grading: runs in the grader beside orders01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of orders01's. The player holds NET_ADMIN (packet filters), so
# the check also refuses any listener it does not expect (fl quiet-net): a rule could send the
# clients to a stand-in. It asks, live and after a boot of a copy:
#   what the clients see: orders-api answers at http://orders01:<port> from another host, with
#     this deployment's data; the metrics port does NOT answer that host (the firewall keeps
#     protecting it: switching the firewall off is not a fix);
#   who answers: both ports are held by the system's orders-api program, started the usual way as
#     its own user, on every address; nothing else listens;
#   what the firewall is, live (the rules in force, iptables-save's account read in orders01's
#     network namespace, with nothing else of the network stack in the way: fl network_as_built)
#     and after a boot (inspect.sh loaded /etc/iptables/rules.v4 with the image's
#     iptables-restore, as the boot does), judged rule by rule as the kernel applies them: new connections to the API from EVERY address of the
#     network are let in, the metrics port only from the monitoring server, other ports from no
#     one. The boot's own scripts are the installed ones (a script of the player's could load
#     something else). A live rule the next boot drops is no repair; an equivalent rule written
#     another way is one.
# Environment: FL_TARGET, FL_PORT, FL_METRICS, FL_INSTANCE, FL_ORDER, FL_NET (the network),
# FL_ADDRESS (orders01's address on it) from setup.sh; FL_INSPECTION (boot). Exit 0 = fixed.
base="http://${FL_TARGET}:${FL_PORT}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
me=$(hostname -i 2>/dev/null | awk '{print $1}')

# The firewall judged rule by rule (after a boot as the boot loads it, live as in force), before
# anything is called: /tmp/firewall.py (server/runtime/grader/firewall.py).
api_probe=yes
if [ "$FL_PHASE" = boot ]; then
  verdict=$(GRADER_ADDRESS=$me python3 -I -S /tmp/firewall.py "the front ends") || refuse "${verdict:-The grader could not judge the firewall rules: not graded.}"
  # The copy is on a network of its own: the grader calls the API only where the rules admit it.
  [ "$verdict" = "grader admitted" ] || api_probe=no
else
  # Live: iptables-save's account of the rules in force, read inside orders01's network namespace.
  verdict=$(python3 -I -S /tmp/firewall.py "the front ends") || refuse "${verdict:-The grader could not judge the firewall rules: not graded.}"
fi

if [ "$api_probe" = yes ]; then
  api_answers "$base" orders-api "/v1/orders/$FL_ORDER" "$FL_ORDER" \
    "The shop's front ends get \"connection refused\" at $base from another host of the network." \
    "Connections to $base from another host of the network time out: nothing comes back." \
    "/health answers, but the order lookups of $base do not return this host's orders."
fi

# Who answers (the system's program as its own user, on every address), nothing else listening or
# in the way on the network stack, the boot's own scripts, the metrics port closed to this host:
# fl.network_service (server/runtime/grader/fl/60-network-client.py).
who=$(python3 -I -S - <<'PY'
import sys
sys.path.insert(0, "/tmp")
import fl
fl.judged(fl.network_service, "orders-api", "orders", ["PORT", "METRICS"], private="METRICS", firewall=("ip", "filter"),
          argv=["/usr/bin/python3", "-I", "-S", "/usr/lib/orders-api/orders_api.py", "/etc/orders-api/orders-api.conf"],
          config=["/etc/orders-api", "/etc/orders-api/orders-api.conf"],
          boot_files=["/etc/alternatives/iptables", "/etc/alternatives/iptables-restore", "/etc/alternatives/iptables-save"])
PY
) || refuse "${who:-The grader could not judge who answers: not graded.}"
echo "The front ends reach orders-api at $base again, and the firewall still keeps its metrics port closed."
