#!/usr/bin/env bash
# Sets up and runs every test: lint (the layer rules of eslint.config.js, see
# docs/architecture.md), unit and integration tests (vitest, against SQLite and a
# throwaway PostgreSQL), the challenge runtime against a real dockerd (conformance suite and every
# challenge: setup → check fails → solution → check passes), then browser tests (Playwright
# driving Debian's Chromium).
source "$(dirname "$0")/lib.sh"

# Each suite's output is kept to add up its counts for one closing line.
outputs=$(mktemp -d)
trap 'rm -rf "$outputs"' EXIT
suite() {
  local name=$1; shift
  "$@" 2>&1 | tee "$outputs/$name.log"
}
# How long each stage took, for the closing lines: the CI budget is watched stage by stage.
times=""
stage_start=$SECONDS
took() {
  local s=$((SECONDS - stage_start))
  times+="${times:+, }$1 $((s / 60))m$((s % 60))s"
  stage_start=$SECONDS
}
# "N passed" / "N failed" as vitest ("Tests  3 failed | 410 passed (413)") and Playwright
# ("  43 passed (2.6m)") print them in their summaries.
count() {
  sed -E 's/\x1b\[[0-9;]*m//g' "$outputs"/*.log | grep -E '^\s*(Tests\s+)?[0-9]+ (passed|failed)' |
    grep -oE "[0-9]+ $1" | awk '{s += $1} END {print s + 0}'
}
apt_ensure chromium chromium /usr/lib/postgresql/15/bin/initdb postgresql ssh openssh-client tmux tmux
npm_ensure
build_web
took setup
log "lint: correctness rules and the layers (eslint.config.js)"
# A lint error stops the run: a forbidden import is a build failure, not a test count.
npm run --silent lint
took lint
log "unit and integration tests"
suite unit npx vitest run
took unit
log "challenge runtime: Docker engine, images, runtime tests"
docker_ensure
npm run images
took images
suite runtime npm run test:runtime
took runtime
log "browser tests"
# The browser runs on the host where deployments come and go. Each new bridge and veth gets an
# IPv6 link-local address, and Chromium aborts every request in flight when an address appears
# (net::ERR_NETWORK_CHANGED), which failed unrelated tests at random. New interfaces get no IPv6
# (deployment networks are IPv4-only anyway); what already exists is untouched.
if [ "$(cat /proc/sys/net/ipv6/conf/default/disable_ipv6 2>/dev/null)" = 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo sysctl -qw net.ipv6.conf.default.disable_ipv6=1 || log "could not disable IPv6 on new interfaces; browser tests may see ERR_NETWORK_CHANGED"
fi
suite browser npx playwright test
took browser
echo "times: $times; total $((SECONDS / 60))m$((SECONDS % 60))s"
echo "all suites: $(count passed) passed, $(count failed) failed"
