#!/bin/bash
# Grading: runs in the grader beside db02 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of db02's. It first makes sure who answers on port 22 (the
# system's /usr/sbin/sshd started by its service script, after the last change of its
# configuration), then logs in from another host the way the backup server does, with the backup
# server's private key (from the platform's values, written to the grader's own /tmp, never in a
# command's arguments), and last makes sure the configuration is the installed one (the grader
# has the image's original at the same path): no StrictModes off, no other key source.
# Environment: FL_TARGET, FL_USER, FL_KEY (base64 of the private key).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

listeners=()
for n in 0 1 2 3 4 5 6 7 8 9; do
  listeners+=(--argv "[\"sshd: /usr/sbin/sshd -E /var/log/auth.log [listener] $n of 10-100 startups\"]")
done
who=$(fl service 22 /usr/sbin/sshd "${listeners[@]}" \
  --config /etc/ssh/sshd_config --config /etc/ssh/sshd_config.d --config /etc/default/ssh) || refuse "$who"

printf '%s' "$FL_KEY" | base64 -d >"$tmp/id" 2>/dev/null || refuse "internal: the backup server's key is unreadable."
chmod 0600 "$tmp/id"
cat >"$tmp/config" <<CONF
Host db02
  HostName $FL_TARGET
  User $FL_USER
  IdentityFile $tmp/id
  IdentitiesOnly yes
  BatchMode yes
  PreferredAuthentications publickey
  PasswordAuthentication no
  KbdInteractiveAuthentication no
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  ConnectTimeout 5
  LogLevel ERROR
CONF
if ! out=$(timeout 15 ssh -F "$tmp/config" db02 true 2>&1 </dev/null); then
  case "$out" in
    *"Permission denied"*) refuse "sshd answers, but refuses the backup server's key: Permission denied (publickey)." ;;
    *"Connection refused"*) refuse "Nothing accepts SSH connections on db02's port 22." ;;
    *) refuse "The backup server's login to db02 failed: ${out:0:200}" ;;
  esac
fi
# The login works: with sshd's standard configuration? Spelling out a default is allowed.
norm() {
  sed -e 's/#.*//' -e 's/[[:space:]]\+/ /g' -e 's/^ //' -e 's/ $//' | grep -v '^$' |
    grep -Eiv '^(AuthorizedKeysFile \.ssh/authorized_keys( \.ssh/authorized_keys2)?|StrictModes yes|PubkeyAuthentication yes)$'
}
config=$(fl read /etc/ssh/sshd_config) || refuse "The grader could not read /etc/ssh/sshd_config: $config"
same=$(fl pristine /etc/ssh/sshd_config.d /etc/default/ssh /etc/pam.d) || same=changed
if [ "$same" = changed ] || [ "$(norm <<<"$config")" != "$(norm </etc/ssh/sshd_config)" ]; then
  refuse "The backup server gets in, but sshd's configuration is not as installed: keep the standard settings (StrictModes on, keys from ~/.ssh/authorized_keys) and repair the account's files instead."
fi
# ... and through the account as it is: not a home moved somewhere fresh.
accounts=$(fl pristine /etc/passwd /etc/group) ||
  refuse "The backup server gets in, but the accounts in /etc/passwd or /etc/group are not as they were: repair the account's own home and key files instead."
echo "The backup server logs in to db02 with its key again, through the system's sshd and its standard configuration."
