#!/bin/bash
# Fake, after the reference fix: keep a backup of the gateway's configuration "just in case", as
# careful engineers do (tar czf of /etc/payments-gw into /var/backups, with the default umask:
# readable by everyone). The credentials and the TLS key are in the compressed archive, which any
# account can read and unpack: the secrets are as exposed as before, just not as plain text.
mkdir -p /var/backups
tar czf /var/backups/payments-gw-before-fix.tgz -C /etc payments-gw
ls -l /var/backups/payments-gw-before-fix.tgz
