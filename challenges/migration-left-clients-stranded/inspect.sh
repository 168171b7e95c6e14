# Before the copy boots: what its firewall will load and where its routing sends replies
# (server/runtime/grader/inspect-prelude.sh).
# 1. The firewall (see the firewall part of check.sh).
firewall_as_loaded
echo "---routing"
# 2. The routing: what the routing its boot applies does with replies to the host's own network
# (the host's address as /etc/network/interfaces documents it, which check.sh compares with the
# deployment's own; every /etc/network/routes.d/*.conf applied as `service static-routes start`
# (pristine, checked) does at boot), then the routes and rules as the kernel holds them.
routing_as_booted
