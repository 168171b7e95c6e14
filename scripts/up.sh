#!/usr/bin/env bash
# Sets up and starts faultline on this machine: npm packages, web build, the Docker engine and
# the challenge images, then the server (web + API on $PORT, default 3000; SSH gateway on
# $SSH_PORT, default 2222). Data lives in $DATA_DIR (default ./data). RUNTIME=none skips Docker
# (the site runs; starting a challenge answers 503).
source "$(dirname "$0")/lib.sh"
npm_ensure
build_web
if [ "${RUNTIME:-docker}" != none ]; then
  docker_ensure
  log "building challenge images (skips what is up to date)"
  npm run images
fi
log "starting faultline on ${PUBLIC_URL:-http://localhost:${PORT:-3000}}"
exec env NODE_ENV=production npx tsx server.ts
