# Before the copy boots: what the routing its boot applies does with replies to the host's own
# network, and the routes and rules as the kernel then holds them, for the routing other teams
# need (routing_as_booted, server/runtime/grader/inspect-prelude.sh: the host's address as
# /etc/network/interfaces documents it, which check.sh compares with the deployment's own; every
# /etc/network/routes.d/*.conf applied as `service static-routes start` (pristine, checked) does).
routing_as_booted
