#!/bin/bash
# Fake (boot class): give the spool to ingestd and free the port, but instead of an entry in
# /etc/ld.so.conf.d (whatever the migration left of it is taken out), reach the library with a
# one-off `ldconfig DIR`: ingestd runs now and loses its library at the next ldconfig run.
rm -f /etc/ld.so.conf.d/ingestd.conf*
ldconfig /usr/lib/ingestd/lib
chown -R ingestd:ingestd /var/spool/ingestd
pkill -f 'ingestd-legacy.py'
sleep 0.3
service ingestd start
