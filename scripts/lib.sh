# Shared by scripts/*.sh: install what this machine lacks, once.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

log() { printf '\033[1;32m==>\033[0m %s\n' "$*" >&2; }

# apt packages, installed only when their command is missing (we run as root on CI machines).
apt_ensure() {
  local missing=()
  while [ $# -gt 0 ]; do
    local cmd=$1 pkg=$2; shift 2
    command -v "$cmd" >/dev/null 2>&1 || [ -x "$cmd" ] || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]} (apt)"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# node_modules matching package-lock.json. `npm install` rather than `npm ci`: the registry
# reachable here serves only this platform's optional packages (tailwind's and rollup's native
# builds for other systems answer 404), so the lock cannot list them and `npm ci` refuses it as
# "out of sync". `npm install` still installs exactly the locked versions.
npm_ensure() {
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "installing npm packages"
    npm install --no-audit --no-fund
  fi
}

build_web() {
  log "building the web app"
  npx react-router build >/dev/null
}

# The Docker engine for the challenge runtime: docker_ensure.
source scripts/docker.sh
