#!/bin/bash
# Fake (boot class): leave the account's home, .ssh and sshd's setting as they are, and make
# whatever name sshd reads a link to a clean copy of the backup server's key in /run (owned by the
# account, 0700): sshd checks the directories of the file the link leads to, so the login works
# now; /run is empty after a reboot.
user=$(grep -l backup01-nightly /home/*/.ssh/* 2>/dev/null | head -1 | cut -d/ -f3)
home=/home/$user
install -d -o "$user" -g "$user" -m 0700 /run/backup-keys
grep -h backup01-nightly "$home"/.ssh/* | sed -E 's/^from="[^"]*" //' | head -1 >/run/backup-keys/authorized_keys
chown "$user:$user" /run/backup-keys/authorized_keys; chmod 0600 /run/backup-keys/authorized_keys
name=$(awk '/^AuthorizedKeysFile/ {print $2}' /etc/ssh/sshd_config); name=${name:-.ssh/authorized_keys}
ln -sfn /run/backup-keys/authorized_keys "$home/.ssh/authorized_keys"
ln -sfn /run/backup-keys/authorized_keys "$home/$name"
