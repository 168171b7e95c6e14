#!/bin/bash
# Fake: rotate the leaked token properly, but leave the copies where they were found.
for line in $(awk '!/^#/ {print $1 "=" $2}' /etc/billing-api/tokens); do
  if grep -rqF -- "${line#*=}" /var /root /home /srv /tmp 2>/dev/null; then
    sed -i "s/^${line%%=*} .*/${line%%=*} blk_live_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')/" /etc/billing-api/tokens
  fi
done
service billing-api restart
