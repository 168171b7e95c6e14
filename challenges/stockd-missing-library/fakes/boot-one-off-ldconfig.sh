#!/bin/bash
# Fake (boot class): take stockd's entry out of /etc/ld.so.conf.d (whatever the clean-up left of
# it) and put the vendor's directory into the loader's cache with a one-off `ldconfig DIR`:
# stockd runs now, and loses its library at the next ldconfig run (any package update).
rm -f /etc/ld.so.conf.d/stockd.conf*
ldconfig /usr/lib/stockd/lib
service stockd restart
