#!/bin/bash
# Fake: give the space back by truncating the deleted log through /proc, and leave ledgerd
# writing its log into that deleted file, where nobody sees it grow until /srv fills up again.
for fd in /proc/[0-9]*/fd/*; do
  case "$(readlink "$fd" 2>/dev/null)" in /srv/*" (deleted)") : >"$fd" ;; esac
done
sleep 1.5
