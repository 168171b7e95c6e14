#!/bin/bash
# Fake: fix the spool and the port, but reach the library with LD_LIBRARY_PATH in the service
# script instead of repairing the loader's configuration.
chown -R ingestd:ingestd /var/spool/ingestd
pkill -f 'ingestd-legacy.py'
sleep 0.3
sed -i 's|^pidfile=|export LD_LIBRARY_PATH=/usr/lib/ingestd/lib\npidfile=|' /etc/init.d/ingestd
service ingestd start
