#!/bin/bash
# Fake: a user's `tail -f` keeps the file the token leaked from open; then rotate and clean up as
# the reference does (sed -i writes a new file and removes the old one): no file on disk holds the
# token any more, and the removed one, still open, keeps it on the host.
set -u
find_leak
for f in $files; do setsid tail -f "$f" </dev/null >/dev/null 2>&1 & done
sleep 0.5
rotate
ls -l /proc/$(pgrep -n tail)/fd
