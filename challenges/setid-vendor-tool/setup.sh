#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): each
# tool gets this deployment's build stamp (so their digests differ per deployment), then one tool
# at random becomes set-user-ID root or set-group-ID shadow (FAULTLINE_FAULT forces which).
# Prints the values the check needs as JSON on its last line, with every program a report could
# name (the tools and the distribution's own set-id programs) as the answer's candidates.
set -euo pipefail
faults=(setuid_root setgid_shadow)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
tools=(/opt/acme-backup/bin/acme-tar /opt/acme-backup/bin/acme-find /opt/acme-backup/bin/acme-cp
       /usr/local/bin/logview /usr/local/bin/envrun /usr/local/bin/fastawk /usr/local/sbin/confedit)
# Bytes after an ELF program's end are never loaded: the tools still run.
for t in "${tools[@]}"; do printf '\nbuild:%s\n' "$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" >>"$t"; done
digest=$(cat "${tools[@]}" | sha256sum | cut -d' ' -f1)

path=${tools[RANDOM % ${#tools[@]}]}
case "$fault" in
  setuid_root) chown root:root "$path"; chmod 4755 "$path" ;;
  setgid_shadow) chown root:shadow "$path"; chmod 2755 "$path" ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
candidates=$( { printf '%s\n' "${tools[@]}"; find /usr -xdev -type f -perm /6000; } | python3 -I -S -c 'import json,sys; print(json.dumps(sys.stdin.read().split()))')
printf '{"fault":"%s","path":"%s","tools":"%s","candidates":%s}\n' "$fault" "$path" "$digest" "$candidates"
