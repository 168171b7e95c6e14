#!/bin/bash
# Fake: repair the account the way the reference does, then give the backup server's key an
# expiry-time a quarter of an hour from now (sshd's authorized_keys option). The key works while
# the grader logs in, live and after the boot, and stops working before tonight's backup: the
# login fails again with "Permission denied (publickey)". Nothing in the file's owner, mode or
# place shows it. A check must judge what the key line lets the backup server do, not only that
# one login works now.
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
until=$(date -u -d '+15 minutes' +%Y%m%d%H%M)
sed -i -E "s/^(from=\"[^\"]*\" )?(.*backup01-nightly)\$/expiry-time=\"$until\" \\2/" "$home/.ssh/authorized_keys"
chown "$user:$user" "$home/.ssh/authorized_keys"; chmod 0600 "$home/.ssh/authorized_keys"
service ssh restart
sleep 0.5
