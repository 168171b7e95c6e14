#!/bin/bash
# Fake: run tallyd on a fresh copy of the data (right owners) while the restored tree keeps its
# wrong ones, and keep the old path in DATA_DIR's line after a `#` in the middle of the word:
# tallyd reads the value up to the `#` (the copy), a reader who looks for the path finds it. The
# old heartbeat's name is linked to the new one so that it moves.
user=$(sed -n 's/^TALLY_USER=//p' /etc/default/tallyd)
data=$(sed -n 's/^DATA_DIR=//p' /etc/default/tallyd)
cp -a "$data" /srv/tally-fresh
chown -R "$user:$user" /srv/tally-fresh; chmod -R u+rwX,go-w /srv/tally-fresh; chmod 0750 /srv/tally-fresh
sed -i "s|^DATA_DIR=.*|DATA_DIR=/srv/tally-fresh#$data|" /etc/default/tallyd
service tallyd restart
ln -sf /srv/tally-fresh/db/heartbeat "$data/db/heartbeat"
sleep 1.5
