#!/bin/bash
# Fake: repair the account the way the reference does, then pin the backup server's key to a
# forced command (command="true" in authorized_keys, "to be safe"). The grader's `ssh db02 true`
# still succeeds, live and after the boot, but whatever the backup server asks for (its dump,
# its rsync) is replaced by `true`: tonight's backup is empty and nothing fails loudly. A check
# must judge that the login runs what the backup server asks, not only that one login works.
set -uo pipefail
user=$(grep -l backup01-nightly /home/*/.ssh/* 2>/dev/null | head -1 | cut -d/ -f3)
home=/home/$user
grep -E '^AuthorizedKeysFile' /etc/ssh/sshd_config && sed -i 's|^AuthorizedKeysFile.*|#AuthorizedKeysFile\t.ssh/authorized_keys .ssh/authorized_keys2|' /etc/ssh/sshd_config
chmod go-w "$home"; chgrp "$user" "$home"
chmod 0700 "$home/.ssh"; chown "$user:$user" "$home/.ssh"
for f in "$home"/.ssh/*; do
  case "$f" in */authorized_keys) continue ;; esac
  if grep -q backup01-nightly "$f"; then grep backup01-nightly "$f" >>"$home/.ssh/authorized_keys"; rm -f "$f"; fi
done
sed -i -E 's/^(from="[^"]*" )?(.*backup01-nightly)$/command="true" \2/' "$home/.ssh/authorized_keys"
chown "$user:$user" "$home/.ssh/authorized_keys"; chmod 0600 "$home/.ssh/authorized_keys"
service ssh restart
sleep 0.5
