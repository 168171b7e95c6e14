#!/bin/bash
# Fake: rotate by hand and fix the configuration, but feed the new log from a loop of our own
# while pricefeed is stopped.
log=$(sed -n 's/^LOG_FILE=//p' /etc/default/pricefeed)
service pricefeed stop
for n in 3 2 1; do [ -e "$log.$n" ] && mv "$log.$n" "$log.$((n + 1))"; done
mv "$log" "$log.1"
cat >/etc/logrotate.d/pricefeed <<CONF
$log {
    daily
    rotate 7
    copytruncate
}
CONF
echo "\"$log\" $(date +%Y-%-m-%-d-%-H:%-M:%-S)" >>/var/lib/logrotate/status
setsid bash -c "while :; do echo \"\$(date -Is) tick ACME 1.00\" >>$log; sleep 0.3; done" </dev/null >/dev/null 2>&1 &
sleep 0.5
