#!/bin/bash
# Fake: give the data directory itself back to tallyd's user with tidy mode bits (0750: tallyd's
# own start-up check looks only at those), and grant the rest through ACLs, to tallyd's user and,
# "for the next restore", to the backup account too: `ls -l` shows nothing open to others, yet
# the backup account can go in and write the records.
user=$(sed -n 's/^TALLY_USER=//p' /etc/default/tallyd)
data=$(sed -n 's/^DATA_DIR=//p' /etc/default/tallyd)
chown "$user:$user" "$data"; chmod 0750 "$data"
chmod -R u+rwX,go-w "$data"
setfacl -m u:backup:--x "$data"
setfacl -R -m "u:$user:rwX,u:backup:rwX" "$data"/*
service tallyd restart
sleep 1.5
