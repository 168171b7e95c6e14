#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): the
# team gets its own random passwords, then the intruder's account is planted, either a new account
# with uid 0 hidden among the service accounts, or a dormant service account given a password, a
# login shell and membership of the group `disk` (raw access to every disk). Which one, its name
# and the intruder's address are random; FAULTLINE_FAULT forces the kind. Leaves the login in
# /var/log/auth.log. Prints the values the check and the answer need as JSON on its last line.
set -euo pipefail
faults=(uid_zero reopened_system)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
rnd() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }

for u in mara tobias deploy; do echo "$u:$(rnd 12)"; done | chpasswd

case "$fault" in
  uid_zero)
    account=$(shuf -n1 -e sysmaint svc-update ntpsync cachemgr dbus-agent mon-agent pkgsync netcfg logrotd kmsync)
    # Inserted among the service accounts, where a glance at the file does not catch it.
    at=$((4 + RANDOM % 10))
    sed -i "${at}a $account:x:0:0:$account:/var/lib/$account:/bin/bash" /etc/passwd
    sed -i "${at}a $account:!:$(( $(date +%s) / 86400 - 1 )):0:99999:7:::" /etc/shadow
    echo "$account:$(rnd 10)" | chpasswd
    ;;
  reopened_system)
    account=$(shuf -n1 -e games lp news uucp proxy list irc backup)
    usermod -s /bin/bash "$account"
    echo "$account:$(rnd 10)" | chpasswd
    gpasswd -a "$account" disk >/dev/null
    ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac

# What the host's log shows: the team's usual logins, and the one at 03:12.
ip="$(shuf -n1 -e 185 193 45 91 103).$((RANDOM % 250 + 2)).$((RANDOM % 250)).$((RANDOM % 250 + 2))"
day=$(date -d '-1 day' '+%b %e')
{
  for t in "08:02:11 mara 10.20.1.14" "08:41:53 deploy 10.20.0.5" "09:15:20 tobias 10.20.1.22" "13:30:02 deploy 10.20.0.5" "17:48:40 mara 10.20.1.14"; do
    set -- $t
    echo "$day $1 bastion01 sshd[$((RANDOM % 9000 + 1000))]: Accepted publickey for $2 from $3 port $((RANDOM % 20000 + 40000)) ssh2: ED25519 SHA256:$(rnd 16)"
  done
  echo "$(date '+%b %e') 03:11:58 bastion01 sshd[$((RANDOM % 9000 + 1000))]: Failed password for invalid user admin from $ip port $((RANDOM % 20000 + 40000)) ssh2"
  echo "$(date '+%b %e') 03:12:04 bastion01 sshd[$((RANDOM % 9000 + 1000))]: Accepted password for $account from $ip port $((RANDOM % 20000 + 40000)) ssh2"
} >/var/log/auth.log

# The team's records as they should end up: every shadow line but the intruder's account's.
digest=$(while IFS= read -r line; do [ "${line%%:*}" = "$account" ] || printf '%s\n' "$line"; done </etc/shadow | sha256sum | cut -d' ' -f1)
# Every account a report could name: each one in /etc/passwd (but root, and bin, which is also a
# word of every program's path), the names an intruder likes and the one the failed login tried.
candidates=$( { cut -d: -f1 /etc/passwd | grep -vxE 'root|bin'; printf '%s\n' sysmaint svc-update ntpsync cachemgr dbus-agent mon-agent pkgsync netcfg logrotd kmsync admin; } | sort -u | python3 -I -S -c 'import json,sys; print(json.dumps(sys.stdin.read().split()))')
printf '{"fault":"%s","account":"%s","shadow":"%s","candidates":%s}\n' "$fault" "$account" "$digest" "$candidates"
