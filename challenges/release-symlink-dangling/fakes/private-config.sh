#!/bin/bash
# Fake: the real docsrv, started by hand from a private configuration whose root is the deployed
# release, with the site's link left broken.
service docsrv stop
new=$(ls /srv/docs/releases | sort | tail -1)
sed "s|^root = .*|root = /srv/docs/releases/$new|" /etc/docsrv/docsrv.conf >/tmp/docsrv.conf
start-stop-daemon --start --background --make-pidfile --pidfile /tmp/private.pid --chuid www-data:www-data --startas /usr/bin/python3 -- -I -S /usr/lib/docsrv/docsrv.py /tmp/docsrv.conf
sleep 1
