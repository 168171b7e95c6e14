#!/bin/bash
# Fake: point the loader at the library with LD_LIBRARY_PATH in the service script instead of
# repairing the loader's configuration.
sed -i 's|^pidfile=|export LD_LIBRARY_PATH=/usr/lib/stockd/lib\npidfile=|' /etc/init.d/stockd
service stockd start
