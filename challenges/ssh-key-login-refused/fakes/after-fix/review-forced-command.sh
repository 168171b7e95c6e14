#!/bin/bash
# Fake, after the reference fix: pin the backup server's key to a forced command (command="true" in
# authorized_keys, "to be safe"). The grader's `ssh db02 true` still succeeds, live and after the
# boot, but whatever the backup server asks for (its dump, its rsync) is replaced by `true`:
# tonight's backup is empty and nothing fails loudly. A check must judge that the login runs what
# the backup server asks, not only that one login works.
sed -i -E 's/^(from="[^"]*" )?(.*backup01-nightly)$/command="true" \2/' "$home/.ssh/authorized_keys"
chown "$user:$user" "$home/.ssh/authorized_keys"; chmod 0600 "$home/.ssh/authorized_keys"
service ssh restart
sleep 0.5
