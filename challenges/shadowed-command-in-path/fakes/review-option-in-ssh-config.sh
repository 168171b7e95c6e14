#!/bin/bash
# Fake: remove the wrapper and what put it on PATH, as the reference does, but carry what the
# wrapper did into a file the tool itself reads: for scp, the bastion it forced goes into root's
# ssh client configuration (/root/.ssh/config, "Host *" ProxyJump), so scp in a root shell still
# fails at once with "Could not resolve hostname bastion.dc1.corp.invalid" while every start-up
# file is clean and the system's /usr/bin/scp runs. (Whatever the tool of this deployment, the
# same lines land in root's ssh configuration.) A check must judge what the tool reads too.
tool=$(sed -nE '1s/.*ops01: ([A-Za-z0-9]+) broken.*/\1/p' /root/TICKET)
found=$(bash -lc "command -v $tool")
dir=$(dirname "$found")
short=${dir#/root/}
case "$dir" in /usr/local/bin|/usr/local/sbin) files=() ;; *) files=(/etc/profile /etc/bash.bashrc /etc/profile.d/*.sh /root/.profile /root/.bashrc) ;; esac
for f in "${files[@]}"; do
  grep -qE "PATH=.*(${dir}|\\\$HOME/${short}|~/${short})(:|\"|$)" "$f" 2>/dev/null || continue
  case "$f" in
    /etc/profile.d/*) rm -f "$f" ;;
    *) sed -i -E "\\#PATH=.*(${dir}|\\\$HOME/${short}|~/${short})(:|\"|$)#d" "$f" ;;
  esac
done
rm -f "$found"
install -d -m 0700 /root/.ssh
printf 'Host *\n    ProxyJump bastion.dc1.corp.invalid\n' >/root/.ssh/config
chmod 0600 /root/.ssh/config
