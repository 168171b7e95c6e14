#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: see the
# huge (or empty) log, ask logrotate in debug mode what it would do, read its complaint or notice
# it names another file or never tells pricefeed, repair the configuration, rotate once, and
# watch pricefeed write to the new file.
set -uo pipefail
conf=/etc/logrotate.d/pricefeed
log=$(sed -n 's/^LOG_FILE=//p' /etc/default/pricefeed)
ls -l "${log%/*}"
cat "$conf"
report=$(logrotate -d "$conf" 2>&1); echo "$report" | head -n 30
case "$report" in
  *"unknown unit"*) sed -i -E 's/^(\s*maxsize\s+[0-9]+[kMG])B\s*$/\1/' "$conf" ;;
  *"without endscript"*) sed -i -E 's/^(\s*service pricefeed reload.*)$/\1\n    endscript/' "$conf" ;;
esac
# The file the configuration names must be the one pricefeed writes.
path=$(grep -m1 -E '^\S+\s*\{' "$conf" | awk '{print $1}')
[ "$path" = "$log" ] || sed -i "s|^$path {|$log {|" "$conf"
# After a rotation pricefeed must be told to open its new file (it reopens on SIGHUP: reload).
grep -q postrotate "$conf" || sed -i 's|^}$|    postrotate\n        service pricefeed reload >/dev/null 2>\&1 \|\| true\n    endscript\n}|' "$conf"
cat "$conf"
logrotate -d "$conf" 2>&1 | grep -i error
# If pricefeed still writes to last night's rotated file, make it open its log again.
service pricefeed reload
logrotate -v -f "$conf"
sleep 1.5
ls -l "${log%/*}"; tail -n 2 "$log"
