#!/bin/bash
# Fake (boot class): put the vendor's directory into the loader's cache with a one-off
# `ldconfig DIR` and start stockd, leaving /etc/ld.so.conf.d as the clean-up left it: stockd runs
# now, and loses its library at the next ldconfig run (any package update).
ldconfig /usr/lib/stockd/lib
service stockd restart
