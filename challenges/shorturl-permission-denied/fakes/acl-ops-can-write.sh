#!/bin/bash
# Fake: rather than give shorturl's places back with chown, grant them through ACLs, to shorturl
# and (so the ops team can fix links by hand) to the ops account: the mode bits show nothing open
# to other users, and shorturl's own check looks only at those.
for p in /var/lib/shorturl /var/lib/shorturl/links.tsv /run/shorturl /var/log/shorturl /var/log/shorturl/shorturl.log; do
  setfacl -m u:shorturl:rwX,u:ops:rwX "$p"
done
service shorturl restart
sleep 0.5
