#!/bin/bash
# Fake: stop everything that writes, delete the biggest file, and leave the workers down.
service ingest stop
big=$(find /var -xdev -type f -size +16M -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
rm -f -- "$big"
