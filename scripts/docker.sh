# Docker engine for the challenge runtime. Sourced by scripts/lib.sh (which defines log and
# apt_ensure). `docker_ensure` is idempotent: it installs docker.io (and debootstrap, which
# `npm run images` needs for the base image) when missing, starts dockerd when nothing answers,
# and waits up to DOCKER_WAIT_SECONDS (default 60) for it.

docker_ping() {
  docker version --format '{{.Server.APIVersion}}' >/dev/null 2>&1
}

docker_ensure() {
  apt_ensure dockerd docker.io debootstrap debootstrap
  docker_ping && return 0
  if [ -n "${DOCKER_HOST:-}" ] && [[ "$DOCKER_HOST" != unix://* ]]; then
    echo "error: the Docker engine at DOCKER_HOST=$DOCKER_HOST does not answer" >&2
    return 1
  fi
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  local logfile=/var/log/dockerd.log
  log "starting dockerd (log: $logfile)"
  # setsid: dockerd outlives this script and its process group.
  $sudo setsid sh -c "exec dockerd >>$logfile 2>&1 </dev/null" &
  local waited=0 limit=${DOCKER_WAIT_SECONDS:-60}
  until docker_ping; do
    if [ "$waited" -ge "$limit" ]; then
      echo "error: dockerd did not answer within ${limit}s; the end of $logfile:" >&2
      $sudo tail -n 20 "$logfile" >&2 || true
      return 1
    fi
    sleep 1; waited=$((waited + 1))
  done
  log "dockerd ready after ${waited}s"
}
