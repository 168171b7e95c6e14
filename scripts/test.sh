#!/usr/bin/env bash
# Sets up and runs every test: unit and integration tests (vitest, against SQLite and a
# throwaway PostgreSQL), the challenge runtime against a real dockerd (conformance suite and every
# challenge: setup → check fails → solution → check passes), then browser tests (Playwright
# driving Debian's Chromium).
source "$(dirname "$0")/lib.sh"
apt_ensure chromium chromium /usr/lib/postgresql/15/bin/initdb postgresql ssh openssh-client tmux tmux
npm_ensure
build_web
log "unit and integration tests"
npx vitest run
log "challenge runtime: Docker engine, images, runtime tests"
docker_ensure
npm run images
npm run test:runtime
log "browser tests"
# The browser runs on the host where deployments come and go. Each new bridge and veth gets an
# IPv6 link-local address, and Chromium aborts every request in flight when an address appears
# (net::ERR_NETWORK_CHANGED), which failed unrelated tests at random. New interfaces get no IPv6
# (deployment networks are IPv4-only anyway); what already exists is untouched.
if [ "$(cat /proc/sys/net/ipv6/conf/default/disable_ipv6 2>/dev/null)" = 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo sysctl -qw net.ipv6.conf.default.disable_ipv6=1 || log "could not disable IPv6 on new interfaces; browser tests may see ERR_NETWORK_CHANGED"
fi
npx playwright test
