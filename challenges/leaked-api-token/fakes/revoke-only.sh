#!/bin/bash
# Fake: find the leaked token and delete its account's line, so the token is refused, without
# issuing a new one (the client is locked out) and without cleaning up the copies.
for line in $(awk '!/^#/ {print $1 "=" $2}' /etc/billing-api/tokens); do
  if grep -rqF -- "${line#*=}" /var /root /home /srv /tmp 2>/dev/null; then sed -i "/^${line%%=*} /d" /etc/billing-api/tokens; fi
done
service billing-api restart
