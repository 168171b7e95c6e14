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
npx playwright test
