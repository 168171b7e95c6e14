#!/bin/bash
# Fake: copy the vendor's library into /usr/local/lib (writable, on the default search path) and
# rebuild the cache, so stockd loads a copy anyone could have replaced.
cp /usr/lib/stockd/lib/libstockfmt.so.1.2.0 /usr/local/lib/libstockfmt.so.1
ldconfig
service stockd start
