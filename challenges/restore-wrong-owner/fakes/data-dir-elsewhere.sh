#!/bin/bash
# Fake: leave the restored tree with its wrong owners and run tallyd on a fresh copy elsewhere
# (DATA_DIR changed), with the old heartbeat's name linked to the new one so that it moves.
user=$(sed -n 's/^TALLY_USER=//p' /etc/default/tallyd)
data=$(sed -n 's/^DATA_DIR=//p' /etc/default/tallyd)
cp -a "$data" /srv/tally-fresh
chown -R "$user:$user" /srv/tally-fresh; chmod -R u+rwX,go-w /srv/tally-fresh; chmod 0750 /srv/tally-fresh
sed -i 's|^DATA_DIR=.*|DATA_DIR=/srv/tally-fresh|' /etc/default/tallyd
service tallyd restart
ln -sf /srv/tally-fresh/db/heartbeat "$data/db/heartbeat"
sleep 1.5
