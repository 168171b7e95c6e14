# Before the copy of edge01 boots (nothing of the player's runs): ask ldconfig, the program that
# reads the loader's configuration, what a cache built from /etc/ld.so.conf and everything it
# includes would hold, as the next `ldconfig` (any package update) would write it. A scratch
# cache: the copy's own /etc/ld.so.cache (whatever a one-off `ldconfig DIR` put in it) stays as
# the player left it. -X: no links are made or changed in the copy.
ldconfig -X -C /tmp/fl-ld.so.cache >/dev/null 2>&1 || echo "ldconfig-failed"
ldconfig -C /tmp/fl-ld.so.cache -p | grep -F 'libingestfmt' || echo "no-libingestfmt"
