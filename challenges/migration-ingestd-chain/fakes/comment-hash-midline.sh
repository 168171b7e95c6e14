#!/bin/bash
# Fake (comment class): a *.conf file that names the vendor's directory after a "#" in the middle
# of a line (a comment there, for ldconfig), which a reader skipping only lines that start with
# "#" takes for the directory; ingestd started from a one-off cache, spool and port fixed.
printf '# ingestd private libraries\n/usr/lib/ingestd/lib64 #/usr/lib/ingestd/lib\n' >/etc/ld.so.conf.d/ingestd.conf
rm -f /etc/ld.so.conf.d/ingestd.conf.*
ldconfig /usr/lib/ingestd/lib
chown -R ingestd:ingestd /var/spool/ingestd
pkill -f 'ingestd-legacy.py'
sleep 0.3
service ingestd start
