# Before the copy boots: what its firewall will load. `service firewall start` (pristine, checked)
# runs iptables-restore on /etc/iptables/rules.v4 at boot; firewall_as_loaded
# (server/runtime/grader/inspect-prelude.sh) has the image's own iptables-restore load the same
# file the same way, and iptables-save gives its account of the rules for check.sh to judge (the
# boot then loads the same file again).
firewall_as_loaded
