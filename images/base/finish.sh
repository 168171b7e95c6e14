#!/usr/bin/env bash
# Runs on the build host against the fresh debootstrap tree ($1) before `docker import`:
# makes it look like a small server and removes what only the build needed.
set -euo pipefail
root=$1
mirror=$2
suite=$3

# apt: the mirror it was built from, no caches or lists (challenge Dockerfiles run apt-get update).
printf 'deb %s %s main\n' "$mirror" "$suite" >"$root/etc/apt/sources.list"
cat >"$root/etc/apt/apt.conf.d/90faultline" <<'CONF'
APT::Install-Recommends "false";
APT::Install-Suggests "false";
Dpkg::Options { "--force-confdef"; "--force-confold"; };
CONF
rm -rf "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/apt/archives/partial/* \
  "$root"/var/lib/apt/lists/* "$root"/var/log/* "$root"/var/cache/debconf/*-old "$root"/var/lib/dpkg/*-old \
  "$root"/tmp/* "$root"/var/tmp/* "$root"/debootstrap
: >"$root/etc/machine-id"
# The engine provides these at run time.
rm -f "$root/etc/hostname" "$root/etc/resolv.conf"
: >"$root/etc/hostname"; : >"$root/etc/resolv.conf"
# A prompt and a login message that look like a normal server.
cat >"$root/etc/profile.d/faultline.sh" <<'PROFILE'
export LANG=C.UTF-8 EDITOR=vim.tiny PAGER=less
PROFILE
cat >>"$root/root/.bashrc" <<'RC'
PS1='\u@\h:\w\$ '
alias ll='ls -l'
[ -r /usr/share/bash-completion/bash_completion ] && . /usr/share/bash-completion/bash_completion
RC
