#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: read why
# sshd refused the key in its log, then look at what it names (the account's home, .ssh and
# authorized_keys, their owners and modes, the key's options, the AuthorizedKeysFile setting)
# and repair it without weakening sshd.
set -uo pipefail
log=/var/log/auth.log
tail -n 20 "$log"
user=$(grep -oE 'for (invalid user )?[a-z0-9_-]+ from|user [a-z0-9_-]+ |Authentication tried for [a-z0-9_-]+ |Connection closed by authenticating user [a-z0-9_-]+' "$log" |
  grep -oE '(backup-pull|ci-runner|reportsync|etl-loader)' | tail -1)
[ -n "$user" ] || { echo "no failed login of a known account in $log"; exit 1; }
home=$(getent passwd "$user" | cut -d: -f6)
echo "refused login of $user"
namei -l "$home/.ssh/authorized_keys" 2>/dev/null; ls -la "$home/.ssh"
grep -E '^AuthorizedKeysFile' /etc/ssh/sshd_config && sed -i 's|^AuthorizedKeysFile.*|#AuthorizedKeysFile\t.ssh/authorized_keys .ssh/authorized_keys2|' /etc/ssh/sshd_config
# StrictModes: the home, .ssh and the key file belong to the user and only they may write them.
chmod go-w "$home"; chgrp "$user" "$home"
chmod 0700 "$home/.ssh"
chown "$user:$user" "$home/.ssh"
# The key saved under a name sshd does not read.
for f in "$home"/.ssh/*; do
  case "$f" in */authorized_keys) continue ;; esac
  if grep -q backup01-nightly "$f"; then grep backup01-nightly "$f" >>"$home/.ssh/authorized_keys"; rm -f "$f"; fi
done
# A source restriction for a network the backup server is not on.
sed -i -E 's/^from="[^"]*" (.*backup01-nightly)$/\1/' "$home/.ssh/authorized_keys"
chown "$user:$user" "$home/.ssh/authorized_keys"; chmod 0600 "$home/.ssh/authorized_keys"
service ssh restart
sleep 0.5
tail -n 3 "$log"
