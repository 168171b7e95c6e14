#!/usr/bin/env bash
# Sets up and starts faultline on this machine: npm packages, web build, the Docker engine and
# the challenge images, then the server (web + API on $PORT, default 3000; SSH gateway on
# $SSH_PORT, default 2222). Data lives in $DATA_DIR (default ./data). RUNTIME=none skips Docker
# (the site runs; starting a challenge answers 503).
#
# What needs root (apt, dockerd, the host guard's firewall rule, registering gVisor) happens here,
# in the setup steps. The server itself needs no root: with FAULTLINE_USER=<name> (when this
# script runs as root) it runs as that user, created as a system user when missing and added to
# the docker group (docs/decisions/007-sandboxing.md), and allowed to run, through sudo, only the
# read-only check of the host guard. Run as an ordinary user in the docker group, the setup steps
# use sudo and the server runs as that user.
source "$(dirname "$0")/lib.sh"
npm_ensure
build_web
if [ "${RUNTIME:-docker}" != none ]; then
  docker_ensure
  log "building challenge images (skips what is up to date)"
  npm run images
  log "filling the boot caches of new images (the first start after a deploy should not pay for them)"
  npm run caches
fi

# The server stops with exit status 1 after an error it cannot vouch for having contained
# (docs/decisions/015-unexpected-errors.md): started again at once, then after 2, 4... up to 30 s
# while it keeps failing within a minute of its start. SIGINT or SIGTERM stop it for good (the
# server gets the signal and closes in order); a clean exit (status 0) ends the loop too.
supervise() {
  local delay=1 started code child stopping=""
  trap 'stopping=1; [ -n "${child:-}" ] && kill -TERM "$child" 2>/dev/null || true' INT TERM
  while :; do
    started=$SECONDS
    "$@" &
    child=$!
    code=0
    wait "$child" || code=$?
    # A trapped signal ends `wait` early: wait again, for the server to finish closing.
    if [ -n "$stopping" ]; then
      code=0
      wait "$child" || code=$?
    fi
    if [ -n "$stopping" ] || [ "$code" -eq 0 ]; then exit "$code"; fi
    [ $((SECONDS - started)) -ge 60 ] && delay=1
    log "faultline stopped with status $code: starting it again in ${delay} s"
    sleep "$delay"
    delay=$((delay * 2 > 30 ? 30 : delay * 2))
  done
}

server_user="${FAULTLINE_USER:-}"
if [ -n "$server_user" ] && [ "$(id -u)" -eq 0 ] && [ "$server_user" != root ]; then
  if ! id "$server_user" >/dev/null 2>&1; then
    log "creating the system user $server_user"
    useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$server_user"
  fi
  if [ "${RUNTIME:-docker}" != none ] && ! id -nG "$server_user" | tr ' ' '\n' | grep -qx docker; then
    log "adding $server_user to the docker group (the engine's socket)"
    usermod -aG docker "$server_user"
  fi
  if [ "${RUNTIME:-docker}" != none ]; then
    # The server checks (never changes) the host guard; reading the firewall needs root, so the
    # user may run exactly that check through sudo, nothing else.
    apt_ensure sudo sudo
    rule="$server_user ALL=(root) NOPASSWD: /usr/sbin/iptables -w -C INPUT -i fl-+ -j DROP, /usr/sbin/ip6tables -w -C INPUT -i fl-+ -j DROP"
    printf '# Written by faultline scripts/up.sh: %s may check the host guard, nothing more.\n%s\n' "$server_user" "$rule" >/etc/sudoers.d/faultline-host-guard.new
    chmod 0440 /etc/sudoers.d/faultline-host-guard.new
    if visudo -cqf /etc/sudoers.d/faultline-host-guard.new; then
      mv /etc/sudoers.d/faultline-host-guard.new /etc/sudoers.d/faultline-host-guard
    else
      rm -f /etc/sudoers.d/faultline-host-guard.new
      echo "warning: could not write the sudoers rule for the host guard check" >&2
    fi
  fi
  data_dir="${DATA_DIR:-./data}"
  mkdir -p "$data_dir"
  chown -R "$server_user:" "$data_dir"
  log "starting faultline as $server_user on ${PUBLIC_URL:-http://localhost:${PORT:-3000}}"
  # runuser: the user's groups (docker) from the group database, no login shell, no password.
  # HOME: tsx keeps a compile cache there; the data directory is the one place that user writes.
  supervise runuser -u "$server_user" -- env NODE_ENV=production HOME="$(cd "$data_dir" && pwd)" node --import tsx server.ts
fi
if [ "$(id -u)" -eq 0 ] && [ "${RUNTIME:-docker}" != none ]; then
  log "the server runs as root: FAULTLINE_USER=faultline runs it as an unprivileged user in the docker group instead"
fi
log "starting faultline on ${PUBLIC_URL:-http://localhost:${PORT:-3000}}"
supervise env NODE_ENV=production node --import tsx server.ts
