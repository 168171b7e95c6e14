#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: list the
# rules sudo reads, look for the ones that lead to root (ALL, a wildcard in the arguments, or a
# program that can start a shell or write any file: less, vim, find, tar, install, tail on any
# file), then undo them: a reviewed rule is restored from the backup kept before the edit, a
# stray file is removed. visudo checks the result.
set -uo pipefail
d=/etc/sudoers.d
ls -l "$d"; cat /root/.bash_history
user=""
for f in "$d"/*; do
  case "${f##*/}" in *.*|*'~'|README) continue ;; esac
  bad=$(grep -vE '^\s*(#|$)' "$f" | grep -E 'NOPASSWD:\s*ALL\s*$|\*|/usr/bin/(less|vim[.a-z]*|find|tar) ' | head -1)
  [ -n "$bad" ] || continue
  echo "dangerous rule in $f: $bad"
  user=${bad%% *}
  backup=$(ls -t /root/sudoers-backup/"${f##*/}".* 2>/dev/null | head -1)
  if [ -n "$backup" ]; then
    echo "restoring $f from $backup"; cat "$backup" >"$f"
  else
    rm -f "$f"
  fi
done
[ -n "$user" ] || { echo "no dangerous rule found"; exit 1; }
visudo -c || exit 1
echo "ANSWER: The sudo rules let $user become root; I removed or restored the rule."
