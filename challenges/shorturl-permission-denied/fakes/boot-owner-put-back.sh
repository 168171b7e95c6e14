#!/bin/bash
# Fake (works now, broken at the next start): give shorturl's places to its user, start it, then
# let the nightly configuration run put root back as their owner: shorturl keeps what it opened
# and runs, until its next start.
places="/var/lib/shorturl /var/lib/shorturl/links.tsv /run/shorturl /var/log/shorturl /var/log/shorturl/shorturl.log"
for p in $places; do chown shorturl:shorturl "$p"; done
service shorturl restart
for p in $places; do chown root:root "$p"; chmod go-w "$p"; done
sleep 0.5
