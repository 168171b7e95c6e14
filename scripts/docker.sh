# Docker engine for the challenge runtime. Sourced by scripts/lib.sh (which defines log and
# apt_ensure). `docker_ensure` is idempotent: it installs docker.io (and debootstrap, which
# `npm run images` needs for the base image) when missing, starts dockerd when nothing answers,
# and waits up to DOCKER_WAIT_SECONDS (default 60) for it; then it installs the host guard and,
# with DEPLOYMENT_RUNTIME=runsc, registers gVisor with the engine. Everything that needs root is
# here (run as root, or with sudo), so the server itself can run unprivileged.

docker_ping() {
  docker version --format '{{.Server.APIVersion}}' >/dev/null 2>&1
}

docker_ensure() {
  apt_ensure dockerd docker.io debootstrap debootstrap
  docker_start
  host_guard_ensure
  deployment_runtime_ensure
}

docker_start() {
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

# The host guard: drop everything deployment bridges (fl-<hex>, made by server/runtime/docker/network.ts)
# send to this host. Defence in depth behind bridges that have no address; challenges granted
# NET_ADMIN or NET_RAW (which could add a route to a host address) are refused without it. The
# server only checks for it. Rules do not survive a reboot: `npm run up` adds them at every start.
host_guard_ensure() {
  if [ -n "${DOCKER_HOST:-}" ] && [[ "$DOCKER_HOST" != unix://* ]]; then return 0; fi
  local sudo="" bin failed=0
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  for bin in iptables ip6tables; do
    $sudo "$bin" -w -C INPUT -i fl-+ -j DROP 2>/dev/null && continue
    if $sudo "$bin" -w -I INPUT -i fl-+ -j DROP; then
      log "host guard: $bin -I INPUT -i fl-+ -j DROP"
    else
      failed=1
    fi
  done
  if [ "$failed" -ne 0 ]; then
    echo "WARNING: the host guard (iptables -I INPUT -i fl-+ -j DROP) could not be installed;" \
      "challenges that need NET_ADMIN or NET_RAW will be refused. Run this script as root." >&2
  fi
  return 0
}

# DEPLOYMENT_RUNTIME=runsc: deployments run under gVisor (docs/decisions/007-sandboxing.md).
# Installs Debian's runsc and registers it in /etc/docker/daemon.json (platform ptrace: no KVM
# needed; network "host" = the container's own namespace, which Docker prepares), then asks
# dockerd to reload its configuration. Nothing happens with the default (runc).
deployment_runtime_ensure() {
  local want="${DEPLOYMENT_RUNTIME:-runc}"
  [ "$want" = runc ] && return 0
  if [ "$want" != runsc ]; then
    echo "error: DEPLOYMENT_RUNTIME must be runc or runsc, not '$want'" >&2
    return 1
  fi
  if docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; then return 0; fi
  apt_ensure runsc runsc
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  local conf=/etc/docker/daemon.json
  $sudo mkdir -p /etc/docker
  # node is here anyway (npm): merge rather than overwrite what an operator configured.
  $sudo node -e '
    const fs = require("fs"), file = process.argv[1];
    const conf = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8") || "{}") : {};
    conf.runtimes = { ...conf.runtimes, runsc: { path: "/usr/bin/runsc", runtimeArgs: ["--platform=ptrace", "--network=host"] } };
    fs.writeFileSync(file, JSON.stringify(conf, null, 2) + "\n");
  ' "$conf"
  # SIGHUP: dockerd reloads its configuration (runtimes included); containers keep running.
  $sudo sh -c 'kill -HUP "$(cat /var/run/docker.pid)"'
  local waited=0
  until docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; do
    if [ "$waited" -ge 10 ]; then
      echo "error: dockerd did not pick up the runsc runtime from $conf" >&2
      return 1
    fi
    sleep 1; waited=$((waited + 1))
  done
  log "gVisor (runsc) registered with dockerd"
}
