#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): this
# week's on-call rota gets its rule, then one account gets a sudo rule that leads to root: a
# forgotten "NOPASSWD: ALL", a tool with a shell escape (less, vim, find, tar) or a reviewed rule
# broadened with a wildcard (FAULTLINE_FAULT forces which; account, tool and file are random).
# Prints the values the check and the answer need as JSON on its last line.
set -euo pipefail
faults=(nopasswd_all shell_escape broadened_rule)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
d=/etc/sudoers.d

rota=$(shuf -n3 -e mara tobias lena sven ayse jonas noor piet | paste -sd, | sed 's/,/, /g')
printf '# On-call rota (changes every Monday): may restart the shop'"'"'s services.\nUser_Alias ONCALL = %s\nONCALL ALL=(root) NOPASSWD: /usr/sbin/service shopapi restart, /usr/sbin/service shopworker restart\n' "$rota" >"$d/15-oncall"
chmod 0440 "$d/15-oncall"
oncall=$(sha256sum "$d/15-oncall" | cut -d' ' -f1)

case "$fault" in
  nopasswd_all|shell_escape)
    user=$(shuf -n1 -e deploy ci-runner reportsync monitor)
    file=$d/$(shuf -n1 -e "90-$user-debug" "99-hotfix" "50-$user" "zz-temp-$user")
    if [ "$fault" = nopasswd_all ]; then
      rule="$user ALL=(ALL:ALL) NOPASSWD: ALL"
    else
      rule="$user ALL=(root) NOPASSWD: $(shuf -n1 -e '/usr/bin/less /var/log/shopapi/*' '/usr/bin/vim.tiny /etc/shopapi/*' '/usr/bin/find /srv/releases *' '/usr/bin/tar -czf /srv/backup/*')"
    fi
    printf '# temporary, remove after the incident\n%s\n' "$rule" >"$file"
    chmod 0440 "$file"
    history="cat > $file\nvisudo -c\nsudo -l -U $user\n"
    ;;
  broadened_rule)
    case $((RANDOM % 3)) in
      0) user=deploy; file=$d/10-deploy; rule="deploy ALL=(root) NOPASSWD: /usr/sbin/service *" ;;
      1) user=ci-runner; file=$d/20-ci-runner; rule="ci-runner ALL=(root) NOPASSWD: /usr/bin/install *" ;;
      2) user=reportsync; file=$d/30-reportsync; rule="reportsync ALL=(root) NOPASSWD: /usr/bin/tail *" ;;
    esac
    # The engineer kept a copy before "simplifying" the rule.
    mkdir -p /root/sudoers-backup
    cp -p "$file" "/root/sudoers-backup/${file##*/}.$(date -d '-2 day' +%Y%m%d)"
    sed -i "/^$user /c\\$rule" "$file"
    history="cp -p $file /root/sudoers-backup/\nvisudo -f $file\nvisudo -c\n"
    ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
visudo -c >/dev/null || { echo "setup: sudoers do not parse" >&2; exit 1; }
printf "cd /etc/sudoers.d\nls -l\n${history}exit\n" >/root/.bash_history
# Every account a report could name: the service accounts, the team's engineers and the rota.
candidates=$(printf '"%s",' deploy ci-runner reportsync monitor mara tobias lena sven ayse jonas noor piet)
printf '{"fault":"%s","user":"%s","rule":"%s","oncall":"%s","rota":"%s","candidates":[%s]}\n' "$fault" "$user" "$rule" "$oncall" "${rota//,/}" "${candidates%,}"
