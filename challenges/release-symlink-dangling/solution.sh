#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: see the
# 503, read docsrv's log and the deploy log, look at where the link leads, and point it at the
# release the deploy announced (the newest one in releases/), atomically with ln -sfn.
set -uo pipefail
base=/srv/docs
curl -s -o /dev/null -w '%{http_code}\n' http://127.0.0.1/
tail -n 3 /var/log/docsrv/docsrv.log
tail -n 6 /var/log/deploy/deploy.log
ls -l "$base" "$base/releases"
readlink "$base/current"; readlink -f "$base/current" || true
# The release the last deploy uploaded.
new=$(grep -o 'deploy [0-9]\{12\}-[0-9a-f]\{7\}: upload ok' /var/log/deploy/deploy.log | tail -1 | cut -d' ' -f2 | tr -d :)
[ -d "$base/releases/$new/" ] || { echo "release $new is not in $base/releases"; exit 1; }
# A stray link that `ln -sf` made inside an old release, if any.
find "$base/releases" -mindepth 2 -maxdepth 2 -type l -name "$new" -print -delete
ln -sfn "releases/$new" "$base/current.tmp" && mv -T "$base/current.tmp" "$base/current"
chown -h deploy:deploy "$base/current"
readlink "$base/current"
curl -s http://127.0.0.1/ | grep -o '<meta name="release"[^>]*>'
