#!/bin/bash
# Fake: rename every file holding a dangerous-looking rule so sudo skips it (names with a dot are
# ignored), instead of removing the rule or restoring the reviewed one.
for f in /etc/sudoers.d/*; do
  case "${f##*/}" in *.*|README) continue ;; esac
  if grep -vE '^\s*(#|$)' "$f" | grep -qE 'NOPASSWD:\s*ALL\s*$|\*|/usr/bin/(less|vim[.a-z]*|find|tar) '; then mv "$f" "$f.disabled"; fi
done
visudo -c
