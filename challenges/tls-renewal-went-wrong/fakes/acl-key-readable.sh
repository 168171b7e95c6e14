#!/bin/bash
# Fake (acl class): install the renewal properly, then let the web server's user read the private
# key through ACLs on the key and its directory (the mode bits still read 0600 and 0710).
d=$(ls -d /etc/ssl/portal/renewal-* | tail -n 1)
cat "$d/portal01.crt" "$d/chain.pem" >/etc/ssl/portal/portal01.fullchain.pem
cat /etc/ssl/private/portal01-*.key >/etc/ssl/private/portal01.key
setfacl -m u:www-data:x /etc/ssl/private
setfacl -m u:www-data:r /etc/ssl/private/portal01.key
service nginx restart
sleep 0.3
