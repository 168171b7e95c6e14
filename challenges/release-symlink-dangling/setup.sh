#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): builds
# a few releases of the documentation site under /srv/docs/releases (random ids and content),
# starts docsrv, then replays a deploy of the newest release whose switch of /srv/docs/current
# went wrong in one of several ways (FAULTLINE_FAULT forces one). Prints the values the check
# needs as JSON on its last line.
set -euo pipefail
faults=(pruned_previous relative_link ln_into_old build_host_path)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
base=/srv/docs
rel=$base/releases
dlog=/var/log/deploy/deploy.log
rm -rf "${rel:?}"/* "$base"/current*
: >"$dlog"

# Releases, oldest first: <UTC timestamp>-<commit>; the last one is the deploy that just ran.
count=$((3 + RANDOM % 3))
ids=()
for i in $(seq "$count"); do
  hours=$(((count - i) * (20 + RANDOM % 30) + 1))
  ids+=("$(date -u -d "-$hours hours" +%Y%m%d%H%M)-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n' | cut -c1-7)")
done
topics=("rate limits" "webhooks" "pagination" "API keys" "sandbox accounts" "idempotency keys" "error codes" "SDK setup")
for i in "${!ids[@]}"; do
  id=${ids[$i]}; d=$rel/$id
  mkdir -p "$d/assets"
  echo "$id" >"$d/REVISION"
  cat >"$d/index.html" <<HTML
<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="release" content="$id"><title>Developer documentation</title>
<link rel="stylesheet" href="/assets/site.css"></head>
<body>
<h1>Developer documentation</h1>
<p>New in this release: ${topics[RANDOM % ${#topics[@]}]} and ${topics[RANDOM % ${#topics[@]}]}.</p>
<footer>release $id</footer>
</body>
</html>
HTML
  printf 'body { font-family: sans-serif; max-width: %dem; margin: auto; }\n' $((40 + RANDOM % 20)) >"$d/assets/site.css"
done
chown -R deploy:deploy "$rel"
new=${ids[-1]}; prev=${ids[-2]}
digest=$(sha256sum "$rel/$new/index.html" | cut -d' ' -f1)

stamp() { date -u -d "-$1 seconds" +%Y-%m-%dT%H:%M:%SZ; }
{
  echo "$(stamp 400) deploy $prev: upload ok, checks ok"
  echo "$(stamp 399) deploy $prev: current -> releases/$prev"
  echo "$(stamp 399) deploy $prev: done"
  echo "$(stamp 95) deploy $new: upload ok ($(find "$rel/$new" -type f | wc -l) files)"
  echo "$(stamp 94) deploy $new: checks ok"
} >>"$dlog"
cd "$base"
case "$fault" in
  pruned_previous)
    # The switch was skipped (its lock was stale), the pruning step ran anyway and removed the
    # release that current still pointed to.
    ln -s "releases/$prev" current
    rm -rf "${rel:?}/$prev"
    { echo "$(stamp 93) deploy $new: WARNING switch skipped: lock /srv/docs/.switch.lock held"
      echo "$(stamp 92) deploy $new: prune: keeping the 2 newest releases, removed $prev"
      echo "$(stamp 92) deploy $new: done"; } >>"$dlog"
    for old in "${ids[@]:0:${#ids[@]}-2}"; do rm -rf "${rel:?}/$old"; done
    ;;
  relative_link)
    # A rewrite of the deploy script dropped the leading slash of an absolute path.
    ln -s "releases/$prev" current
    ln -sfn "srv/docs/releases/$new" current
    { echo "$(stamp 93) deploy $new: current -> srv/docs/releases/$new"
      echo "$(stamp 93) deploy $new: done"; } >>"$dlog"
    ;;
  ln_into_old)
    # `ln -sf` without -n follows the existing link to a directory and creates the new link
    # inside the old release: current is unchanged.
    ln -s "releases/$prev" current
    ln -sf "releases/$new" current
    { echo "$(stamp 93) deploy $new: current -> releases/$new"
      echo "$(stamp 93) deploy $new: done"; } >>"$dlog"
    ;;
  build_host_path)
    # The link was made on the build host and copied over as a link (rsync -l): it names the
    # build host's workspace, which does not exist here.
    ln -s "/home/ci/workspace/docs-site/releases/$new" current
    { echo "$(stamp 93) deploy $new: rsync -a build01:/home/ci/workspace/docs-site/current /srv/docs/current"
      echo "$(stamp 93) deploy $new: done"; } >>"$dlog"
    ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
chown -h deploy:deploy current
rm -f /var/log/docsrv/docsrv.log
service docsrv start >/dev/null
# The health check of the load balancer (and first users) since the switch.
for _ in 1 2 3; do curl -s -o /dev/null --max-time 2 http://127.0.0.1/ || true; done
printf '{"fault":"%s","release":"%s","digest":"%s"}\n' "$fault" "$new" "$digest"
