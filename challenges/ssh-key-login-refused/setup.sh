#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): makes
# this deployment's host key and the backup server's key pair, installs the public key for one
# of the service accounts (random), breaks the key login in one of several ways (FAULTLINE_FAULT
# forces which; the details are random), starts sshd, and lets the backup server's nightly login
# fail once so the refusal is in sshd's log. The private key leaves the host: it is printed in
# the values for the check, and deleted here.
set -euo pipefail
faults=(home_writable ssh_dir_modes key_file_owner wrong_file from_restriction keys_file_setting)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
user=$(shuf -n1 -e backup-pull ci-runner reportsync etl-loader)
home=/home/$user

ssh-keygen -q -t ed25519 -N '' -C '' -f /etc/ssh/ssh_host_ed25519_key
work=$(mktemp -d)
ssh-keygen -q -t ed25519 -N '' -C "backup01-nightly" -f "$work/id"
install -d -m 0700 -o "$user" -g "$user" "$home/.ssh"
# A teammate's key is there too: the file is not only the backup server's.
printf 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI%s ops-laptop\n' "$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n' | head -c 43)" >"$home/.ssh/authorized_keys"
keyfile=$home/.ssh/authorized_keys
case "$fault" in
  wrong_file) keyfile=$home/.ssh/$(shuf -n1 -e authorized_keys.pub authorized_key authorised_keys id_ed25519.pub) ;;
esac
if [ "$fault" = from_restriction ]; then
  printf 'from="10.%s.%s.0/24" %s\n' "$((RANDOM % 200 + 20))" "$((RANDOM % 250))" "$(cat "$work/id.pub")" >>"$keyfile"
else
  cat "$work/id.pub" >>"$keyfile"
fi
chown "$user:$user" "$home/.ssh"/*; chmod 0600 "$home/.ssh"/*
case "$fault" in
  # Debian's sshd accepts group write when the group is the account's own (and only its): the
  # tidying gave the team's shared group write access, or everybody.
  home_writable)
    if [ $((RANDOM % 2)) = 0 ]; then chmod "$(shuf -n1 -e 0777 0757)" "$home"; else chgrp users "$home"; chmod 0775 "$home"; fi ;;
  ssh_dir_modes)
    if [ $((RANDOM % 2)) = 0 ]; then chmod "$(shuf -n1 -e 0777 0757)" "$home/.ssh"; else chgrp users "$home/.ssh"; chmod 0770 "$home/.ssh"; fi ;;
  key_file_owner)
    if [ $((RANDOM % 2)) = 0 ]; then chmod 0666 "$keyfile"; else chown "$(shuf -n1 -e backup-pull ci-runner reportsync etl-loader | grep -vx "$user" || echo nobody):" "$keyfile"; fi ;;
  keys_file_setting)
    sed -i "s|^#AuthorizedKeysFile.*|AuthorizedKeysFile\t.ssh/$(shuf -n1 -e authorized_keys_old authorized_keys.disabled authorized_keys2)|" /etc/ssh/sshd_config ;;
esac
service ssh start >/dev/null

# Last night's login from the backup server, as sshd saw it (from this host: the only way here).
ssh -q -i "$work/id" -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
  -o IdentitiesOnly=yes -o ConnectTimeout=3 "$user@127.0.0.1" true 2>/dev/null && { echo "setup: fault $fault did not stop the login" >&2; exit 1; }
key=$(base64 -w0 "$work/id")
rm -rf "$work"
printf '{"fault":"%s","user":"%s","key":"%s"}\n' "$fault" "$user" "$key"
