#!/bin/bash
# Fake: rotate by hand tonight, and write a stanza that logrotate accepts and that reads as the
# right one: the log pricefeed writes, and a postrotate that "reloads" pricefeed. But the `#` of
# `reload#` is in the middle of a word, where the shell takes it as text: the script runs
# `service pricefeed 'reload#...'`, which the init script rejects, and pricefeed never reopens.
log=$(sed -n 's/^LOG_FILE=//p' /etc/default/pricefeed)
for n in 3 2 1; do [ -e "$log.$n" ] && mv "$log.$n" "$log.$((n + 1))"; done
mv "$log" "$log.1"
install -o pricefeed -g pricefeed -m 0640 /dev/null "$log"
service pricefeed reload
cat >/etc/logrotate.d/pricefeed <<CONF
$log {
    daily
    maxsize 50M
    rotate 7
    missingok
    notifempty
    compress
    delaycompress
    create 0640 pricefeed pricefeed
    postrotate
        service pricefeed reload#s pricefeed: it reopens its log
    endscript
}
CONF
echo "\"$log\" $(date +%Y-%-m-%-d-%-H:%-M:%-S)" >>/var/lib/logrotate/status
sleep 0.5
