#!/bin/bash
# Grading: runs in the grader beside metrics01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of metrics01's. The same questions live and after a reboot:
#   what the dashboards see: tsdb's health, from another host, with this deployment's instance
#     and every shard served;
#   who answers: port 9090 is held only by the system's tsdb program, started the usual way, as
#     its user, after the last change of what its start reads (tsdb.conf, the service's defaults);
#   the data: every shard is still in /var/lib/tsdb/shards, byte for byte.
# The limits themselves are judged by tsdb: after a reboot it starts from the files on disk
# through its service script, and serves every shard only if every limit on the way allows it.
# And the limit it runs with leaves room to grow (512 descriptors above today's shards): the
# archive grows every week, and a limit that just fits today fails again next week.
# Environment: FL_TARGET, FL_INSTANCE, FL_SHARDS, FL_DIGEST (chosen by setup.sh).
body=$(fetch "http://${FL_TARGET}:9090/health" -sS --max-time 5 2>&1) ||
  refuse "Nothing answers at http://${FL_TARGET}:9090/health: tsdb is not running (${body#curl: })."
[[ "$body" == *"\"instance\": \"$FL_INSTANCE\""* ]] || refuse "Something answers on port 9090, but it is not this host's tsdb."
pids=$(fl service 9090 /usr/bin/python3.11 --argv '["/usr/bin/python3","-I","-S","/usr/lib/tsdb/tsdb.py","/etc/tsdb/tsdb.conf"]' \
  --config /etc/tsdb/tsdb.conf --config /etc/default/tsdb) || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = tsdb ] || refuse "tsdb runs as $user: start it with its service script, as the user tsdb."
done
# Its configuration is a file of the host's (tsdb falls back to built-in settings without one).
conf=$(fl stat /etc/tsdb/tsdb.conf)
case $? in
  0) [[ "$conf" == file\ * ]] || refuse "/etc/tsdb/tsdb.conf is not a regular file." ;;
  3) refuse "tsdb's configuration /etc/tsdb/tsdb.conf is missing: tsdb runs on built-in settings." ;;
  *) refuse "$conf" ;;
esac

# Every shard, by name and bytes, read in one pass (values stay in the environment).
read -r on_disk same < <(python3 -I -S - <<'PY'
import hashlib, os, re
fl = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "/tmp/fl.py", "exec"), fl)
top = "/var/lib/tsdb/shards"
h, n = hashlib.sha256(), 0
try:
    for name in fl["list_dir"](top):
        if name.endswith(".dat"):
            data = fl["read_file"](f"{top}/{name}")
            h.update(name.encode() + b"\0" + data)
            n += 1
    print(n, "same" if h.hexdigest() == os.environ["FL_DIGEST"] else "changed")
except (OSError, fl["Refused"]):
    print(n, "unreadable")
PY
)
# Room to grow: the descriptor limit tsdb really runs with (the kernel's account, after its own
# setrlimit) leaves room for the weeks ahead (the archive grows by a couple of hundred shards a
# week), not only for today's shards.
export FL_SERVICE_PIDS=$pids
room=$(python3 -I -S - <<'PY'
import os
low = None
try:
    for pid in os.environ["FL_SERVICE_PIDS"].split():
        with open(f"/proc/{pid}/limits") as f:
            for line in f:
                if line.startswith("Max open files"):
                    soft = line.split()[3]
                    value = 1 << 62 if soft == "unlimited" else int(soft)
                    low = value if low is None else min(low, value)
    print("unreadable" if low is None else low)
except (OSError, ValueError, IndexError):
    print("unreadable")
PY
)
[[ "$room" =~ ^[0-9]+$ ]] || refuse "The grader could not read tsdb's descriptor limit: not graded."
[ "$room" -ge $((FL_SHARDS + 512)) ] ||
  refuse "tsdb serves today's shards, but it runs with a limit of $room open files: next week's shards will not fit. Leave it room to grow."
if [ "${on_disk:-}" != "$FL_SHARDS" ] || [ "${same:-}" != same ] || [[ "$body" != *"\"shards\": $FL_SHARDS,"* && "$body" != *"\"shards\": $FL_SHARDS}"* ]]; then
  refuse "tsdb runs, but not with all of its shards: data in /var/lib/tsdb/shards was moved, changed or thrown away."
fi
echo "tsdb serves all $FL_SHARDS shards again, and comes back by itself after a reboot."
