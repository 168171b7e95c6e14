#!/bin/bash
# Fake: stop every background job (and their helpers) instead of finding the one at fault.
service tsdb-jobs stop
pkill -f '^/usr/bin/sleep 86400$' || true  # the jobs' waiting helpers (not the container's own init)
sleep 1.5
