#!/bin/bash
# Fake: empty the big log in place (weeks of lines thrown away), configuration left broken.
log=$(sed -n 's/^LOG_FILE=//p' /etc/default/pricefeed)
: >"$log"
service pricefeed reload
sleep 0.5
