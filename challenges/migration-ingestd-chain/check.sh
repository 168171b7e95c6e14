#!/bin/bash
# Grading: runs in the grader beside edge01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of edge01's. Live and after a reboot:
#   what the collectors see: a batch posted to http://edge01:7070/ from another host is taken by
#     this deployment's ingestd;
#   who answers: port 7070 is held only by the system's /usr/sbin/ingestd, started the usual way as
#     its user, with no loader variable in its environment and every library it maps from the
#     read-only system (the vendor's library, not a copy in /usr/local);
#   the spool: every migrated batch as it was, the spool and everything in it owned by ingestd
#     (not by the old host's uid, whatever an ACL adds), writable by no other account;
#   after a reboot, also the loader's configuration as ldconfig reads it (inspect.sh): a cache
#     built from /etc/ld.so.conf and what it includes finds libingestfmt.so.2 in the vendor's
#     directory, and only there (a one-off `ldconfig DIR` is gone at the next ldconfig run).
# Environment: FL_TARGET, FL_INSTANCE, FL_BATCHES, FL_DIGEST (setup.sh), FL_PHASE, FL_INSPECTION.
if [ "$FL_PHASE" = boot ]; then
  lib=/usr/lib/ingestd/lib/libingestfmt.so.2
  found=$(grep -E '^[[:space:]]*libingestfmt\.so\.2 ' <<<"${FL_INSPECTION:-}" || true)
  grep -qx ldconfig-failed <<<"${FL_INSPECTION:-}" && refuse "ldconfig cannot read the loader's configuration (/etc/ld.so.conf and what it includes)."
  [ -n "$found" ] || refuse "The loader's configuration (/etc/ld.so.conf and what it includes) does not lead ldconfig to libingestfmt.so.2: the next ldconfig run leaves ingestd without its library."
  while read -r line; do
    [ "${line##*=> }" = "$lib" ] || refuse "The loader's configuration leads ldconfig to another libingestfmt.so.2 (${line##*=> }) than the vendor's, as installed."
  done <<<"$found"
fi
url="http://${FL_TARGET}:7070/"
body=$(fetch "$url" -sS --max-time 5 -d 'batch=probe' 2>&1) || refuse "Nothing answers at $url: ingestd is not running (${body#curl: })."
[[ "$body" == *"\"instance\": \"$FL_INSTANCE\""* ]] || refuse "Something answers at $url, but it is not this host's ingestd: the collectors' batches go nowhere."
pids=$(fl service 7070 /usr/sbin/ingestd --argv '["/usr/sbin/ingestd","/etc/ingestd.conf"]' --config /etc/ingestd.conf) || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = ingestd ] || refuse "ingestd runs as $user: start it with its service script, as the user ingestd."
done

# The spool in one pass: the batches (names and bytes), who owns what, who else may write.
verdict=$(python3 -I -S - <<'PY'
import hashlib, os, stat
fl = {"__name__": "fl"}
exec(compile(open("/tmp/fl.py").read(), "/tmp/fl.py", "exec"), fl)
spool = "/var/spool/ingestd"
try:
    users = fl["_passwd"]()
    uid = users["ingestd"][0]
    names = fl["list_dir"](spool)
    h, n = hashlib.sha256(), 0
    for name in names:
        if name.startswith("batch-"):
            h.update(name.encode() + b"\0" + fl["read_file"](f"{spool}/{name}"))
            n += 1
    if n != int(os.environ["FL_BATCHES"]) or h.hexdigest() != os.environ["FL_DIGEST"]:
        print("data"); raise SystemExit
    for path in [spool] + [f"{spool}/{name}" for name in names]:
        owner = fl["stat_path"](path, want_dir=path == spool).st_uid
        if owner != uid:
            print(f"owner {path} {owner}"); raise SystemExit
        for user, (other, _) in users.items():
            if other not in (0, uid) and "w" in fl["access"](user, path):
                print(f"writable {path} {user}"); raise SystemExit
    print("ok")
except (OSError, KeyError, fl["Refused"]):
    print("unreadable")
PY
)
case "$verdict" in
  ok) ;;
  data) refuse "ingestd runs, but the migrated batches in /var/spool/ingestd are not what they were: the data must be kept." ;;
  owner\ *) read -r _ path owner <<<"$verdict"
    refuse "ingestd runs, but $path still belongs to uid $owner, not to ingestd: the spool came from another host and is not ingestd's yet." ;;
  writable\ *) read -r _ path user <<<"$verdict"
    refuse "ingestd runs, but $user may write $path: the spool should be ingestd's alone." ;;
  *) refuse "The grader could not read the spool /var/spool/ingestd." ;;
esac
echo "ingestd takes the collectors' batches again, from the system's program, with the migrated spool intact and its own."
