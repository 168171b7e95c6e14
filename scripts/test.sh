#!/usr/bin/env bash
# Sets up and runs every test: unit and integration tests (vitest, against SQLite and a
# throwaway PostgreSQL), then browser tests (Playwright driving Debian's Chromium).
source "$(dirname "$0")/lib.sh"
apt_ensure chromium chromium /usr/lib/postgresql/15/bin/initdb postgresql ssh openssh-client
npm_ensure
build_web
log "unit and integration tests"
npx vitest run
log "browser tests"
npx playwright test
