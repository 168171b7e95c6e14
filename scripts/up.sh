#!/usr/bin/env bash
# Sets up and starts faultline on this machine: npm packages, web build, then the server
# (web + API on $PORT, default 3000). Data lives in $DATA_DIR (default ./data).
source "$(dirname "$0")/lib.sh"
npm_ensure
build_web
log "starting faultline on ${PUBLIC_URL:-http://localhost:${PORT:-3000}}"
exec env NODE_ENV=production npx tsx server.ts
