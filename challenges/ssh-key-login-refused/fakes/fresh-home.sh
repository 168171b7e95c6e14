#!/bin/bash
# Fake: leave the broken home as it is and give the account a fresh home elsewhere, with tidy
# modes and the backup server's public key copied from wherever it was found.
user=$(grep -l backup01-nightly /home/*/.ssh/* 2>/dev/null | head -1 | cut -d/ -f3)
key=$(grep -h backup01-nightly /home/"$user"/.ssh/* | sed -E 's/^from="[^"]*" //' | head -1)
install -d -m 0755 -o "$user" -g "$user" "/srv/home-$user" "/srv/home-$user/.ssh"
chmod 0700 "/srv/home-$user/.ssh"
echo "$key" >"/srv/home-$user/.ssh/authorized_keys"
chown "$user:$user" "/srv/home-$user/.ssh/authorized_keys"; chmod 0600 "/srv/home-$user/.ssh/authorized_keys"
usermod -d "/srv/home-$user" "$user"
sed -i 's/^AuthorizedKeysFile/#&/' /etc/ssh/sshd_config
service ssh restart
