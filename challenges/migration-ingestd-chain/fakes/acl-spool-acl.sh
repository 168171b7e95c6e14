#!/bin/bash
# Fake (acl class): repair the loader and free the port as the reference does, but instead of
# giving the spool to ingestd, grant ingestd access with ACLs and leave the old host's uid as its
# owner: ingestd runs, the spool still belongs to an account that does not exist here.
printf '# ingestd private libraries\n/usr/lib/ingestd/lib\n' >/etc/ld.so.conf.d/ingestd.conf
rm -f /etc/ld.so.conf.d/ingestd.conf.*
ldconfig
pkill -f 'ingestd-legacy.py'
setfacl -R -m u:ingestd:rwX /var/spool/ingestd
setfacl -d -m u:ingestd:rwX /var/spool/ingestd
sleep 0.3
service ingestd start
