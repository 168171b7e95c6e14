#!/bin/bash
# Fake (fixed tonight, broken tomorrow): do logrotate's job by hand (move the log aside, tell
# pricefeed, record it in logrotate's state) and leave the configuration as it is, so the next
# nightly run rotates nothing, or leaves pricefeed writing into the rotated file.
log=$(sed -n 's/^LOG_FILE=//p' /etc/default/pricefeed)
for n in 3 2 1; do [ -e "$log.$n" ] && mv "$log.$n" "$log.$((n + 1))"; done
mv "$log" "$log.1"
install -o pricefeed -g pricefeed -m 0640 /dev/null "$log"
service pricefeed reload
echo "\"$log\" $(date +%Y-%-m-%-d-%-H:%-M:%-S)" >>/var/lib/logrotate/status
sleep 0.5
