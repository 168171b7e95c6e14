# A boot of a deployment's copy (server/runtime/scenario.ts): what a Debian host without systemd
# does at start, the way sysv-rc's /etc/init.d/rc runs it: every executable /etc/rcS.d/S* script,
# then every /etc/rc2.d/S* script (runlevel 2, Debian's default), in name order, with "start"
# (names ending in .sh are sourced in a subshell, as rc does), then /etc/rc.local when executable.
# /run and /tmp start empty, as after a real boot. What the player's files make of it is theirs:
# this runs in the copy, never where the grader runs. Each script gets FL_BOOT_STEP seconds; the
# whole boot is bounded by the platform.
export PATH=/sbin:/usr/sbin:/bin:/usr/bin LANG=C.UTF-8 RUNLEVEL=2 PREVLEVEL=N TERM=dumb
cd /
step=${FL_BOOT_STEP:-20}
run() {
  local script=$1
  [ -f "$script" ] && [ -x "$script" ] || return 0
  case "$script" in
    *.sh) timeout -s KILL "$step" /bin/sh -c '. "$0" start' "$script" </dev/null >/dev/null 2>&1 ;;
    *) timeout -s KILL "$step" "$script" start </dev/null >/dev/null 2>&1 ;;
  esac
  echo "$script start: $?"
}
for script in /etc/rcS.d/S* /etc/rc2.d/S*; do
  run "$script"
done
if [ -f /etc/rc.local ] && [ -x /etc/rc.local ]; then
  timeout -s KILL "$step" /etc/rc.local </dev/null >/dev/null 2>&1
  echo "/etc/rc.local: $?"
fi
