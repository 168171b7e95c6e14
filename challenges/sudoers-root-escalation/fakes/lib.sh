#!/bin/bash
# Run before each fake (server/library/challenges.ts, loadFakes): what several of them share,
# defined here and done only where a fake calls it.
d=/etc/sudoers.d
# The rules put right as the reviewers would: each file of /etc/sudoers.d with a rule that leads to
# root restored from its backup, or removed when it has none (user: that rule's account).
# `undo_rules HOOK` runs `HOOK RULE` for each such file, just before it is put right.
undo_rules() {
  for f in "$d"/*; do
    case "${f##*/}" in *.*|*'~'|README) continue ;; esac
    bad=$(grep -vE '^\s*(#|$)' "$f" | grep -E 'NOPASSWD:\s*ALL\s*$|\*|/usr/bin/(less|vim[.a-z]*|find|tar) ' | head -1)
    [ -n "$bad" ] || continue
    user=${bad%% *}
    if [ $# -gt 0 ]; then "$@" "$bad"; fi
    backup=$(ls -t /root/sudoers-backup/"${f##*/}".* 2>/dev/null | head -1)
    if [ -n "$backup" ]; then cat "$backup" >"$f"; else rm -f "$f"; fi
  done
}
