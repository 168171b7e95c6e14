#!/bin/bash
# Grading: runs in the grader beside billing01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of billing01's. The player holds NET_ADMIN (routes, packet
# filters), so the check also refuses any listener it does not expect (fl quiet-net). It asks:
#   what the clients see: billing-api answers at http://billing01:<port> from another host of the
#     network (the grader calls from an address picked at random), with this deployment's data;
#   who answers: the port is held by the system's billing-api program, as its own user;
#   where replies go, for EVERY address of billing01's network, not only the grader's: live, by
#     the main routing table as the kernel holds it (/proc/net/fib_trie: the most specific route
#     to each neighbour is the network's own link route); after a boot, by the kernel itself:
#     inspect.sh applied /etc/network/routes.d as the boot does and asked `ip route get` for each
#     neighbour (prefixes respelled, split or moved to another file change nothing of that);
#   what stays: the routes other teams need are still installed by the boot, as the kernel holds
#     them; the boot's own scripts are the installed ones.
# The written answer (which file) is judged by the platform (challenge.yaml answer:).
# Environment: FL_TARGET, FL_PORT, FL_INSTANCE, FL_INVOICE, FL_NET, FL_ADDRESS, FL_KEEP (setup.sh);
# FL_INSPECTION (boot). Exit 0 = fixed; stdout = feedback.
base="http://${FL_TARGET}:${FL_PORT}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Who answers (the system's program as its own user, on every address), nothing else listening or
# in the way on the network stack, the boot's own scripts:
# fl.network_service (server/runtime/grader/fl/60-network-client.py).
who=$(python3 -I -S - <<'PY'
import sys
sys.path.insert(0, "/tmp")
import fl
fl.judged(fl.network_service, "billing-api", "billing", ["PORT"],
          argv=["/usr/bin/python3", "-I", "-S", "/usr/lib/billing-api/billing_api.py", "/etc/billing-api/billing-api.conf"],
          config=["/etc/billing-api", "/etc/billing-api/billing-api.conf"])
PY
) || refuse "${who:-The grader could not judge who answers: not graded.}"

# Where replies to every neighbour go (live: the main table; after a boot: the kernel's decision):
# /tmp/routes.py (server/runtime/grader/routes.py).
verdict=$(python3 -I -S /tmp/routes.py billing01 "the front ends") || refuse "${verdict:-The grader could not judge the routing: not graded.}"
# Last, what the clients see, from the one address the grader drew: the judgements above cover
# every address, so a broken system always gets the same first sentence whatever the draw.
api_answers "$base" billing-api "/v1/invoices/$FL_INVOICE" "$FL_INVOICE" \
  "Connections to $base from another host of billing01's network are refused." \
  "Connections to $base from another host of billing01's network time out: no answer ever comes back." \
  "/health answers, but the invoice lookups of $base do not return this host's invoices."

echo "The front ends reach billing-api at $base again, and the routing that cut them off is gone for good."
