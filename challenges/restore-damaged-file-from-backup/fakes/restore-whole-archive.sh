#!/bin/bash
# Fake: restore whole archives over the data directory, newest first, until catalogd starts:
# that rolls back every file changed since that night (and the manifest with them).
for a in $(ls -1 /var/backups/catalog/*.tar.gz | sort -r); do
  tar -tzf "$a" >/dev/null 2>&1 || continue
  tar -C / -xzpf "$a" || continue
  service catalogd start && break
done
