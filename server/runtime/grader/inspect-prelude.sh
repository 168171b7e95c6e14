# Put before a challenge's inspect.sh (server/runtime/scenario.ts). It runs in a copy of the
# deployment's disk before that copy boots: no process of the player's runs there, so nothing can
# change the files while they are read. inspect.sh asks the image's own programs what they make
# of the player's configuration (`nginx -t`, `sudo -l -U`, `sshd -T`, `logrotate -d`, `ldconfig`
# into a scratch cache...): its output is what check.sh gets as FL_INSPECTION in the boot phase.
# The platform started this bash through the loader without the player's loader cache and checked
# that /etc/ld.so.preload is empty; `trusted` (and the wrappers below) do the same for every
# program run here, so the player's /etc/ld.so.cache and /usr/local never pick its libraries.
set -u -o pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8
umask 077
fl_loader=/lib64/ld-linux-x86-64.so.2
# trusted PROGRAM ARGS...: the image's PROGRAM (looked up in the read-only directories only), its
# libraries from the read-only directories only. Statically linked programs run as they are.
trusted() {
  local path
  path=$(type -P "$1") || { echo "inspect: no program $1" >&2; return 127; }
  shift
  if "$fl_loader" --verify "$path" >/dev/null 2>&1; then
    "$fl_loader" --inhibit-cache "$path" "$@"
  else
    "$path" "$@"
  fi
}
for fl_tool in awk cat cut grep head ls sed sort stat tail tr wc; do
  eval "$fl_tool() { trusted $fl_tool \"\$@\"; }"
done
unset fl_tool
# ---- inspect.sh
