#!/bin/bash
# Grading: runs in the grader beside build02 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of build02's. It walks build02's writable directories (the
# read-only system cannot change) for regular files with a set-user-ID or set-group-ID bit, with
# fl.py's own descriptor walk (no symbolic link followed), then makes sure every tool is still
# there, unchanged and executable. Environment: FL_PATH (the tool that got the bit), FL_TOOLS
# (the tools' digest), FL_SUBMISSION. FL_PATH never goes into a command's arguments.
tools=(/opt/acme-backup/bin/acme-tar /opt/acme-backup/bin/acme-find /opt/acme-backup/bin/acme-cp
       /usr/local/bin/logview /usr/local/bin/envrun /usr/local/bin/fastawk /usr/local/sbin/confedit)

# inspect: one line per set-id regular file found under the writable directories ("setid PATH"),
# then "mode PATH OCTAL" for each path given (or "mode PATH missing"), then "digest HEX" of their
# contents (one python run: each fl call costs an interpreter start).
inspect() {
  python3 -I -S - "$@" <<'PY'
import hashlib, os, stat, sys
sys.path.insert(0, "/tmp")
import fl
budget = 300000
def walk(fd, path):
    global budget
    for name in os.listdir(fd):
        budget -= 1
        if budget < 0:
            raise fl.Refused("There are too many files for the grader to look at.")
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            continue
        if stat.S_ISDIR(st.st_mode):
            try:
                sub = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=fd)
            except OSError:
                continue
            try:
                walk(sub, f"{path}/{name}")
            finally:
                os.close(sub)
        elif stat.S_ISREG(st.st_mode) and st.st_mode & (stat.S_ISUID | stat.S_ISGID):
            print(f"setid {path}/{name}")
try:
    for top in ("/etc", "/var", "/root", "/home", "/tmp", "/run", "/srv", "/opt", "/usr/local", "/dev"):
        try:
            fd, canonical = fl.resolve(top, want_dir=True)
        except (FileNotFoundError, NotADirectoryError):
            continue
        try:
            walk(fd, canonical.rstrip("/"))
        finally:
            os.close(fd)
    for p in sys.argv[1:]:
        try:
            print(f"mode {p} {stat.S_IMODE(fl.stat_path(p).st_mode):o}")
        except (FileNotFoundError, NotADirectoryError):
            print(f"mode {p} missing")
    h = hashlib.sha256()
    for p in sys.argv[1:]:
        try:
            h.update(fl.read_file(p))
        except (FileNotFoundError, NotADirectoryError):
            h.update(b"\0missing")
    print(f"digest {h.hexdigest()}")
except fl.Refused as e:
    print(f"refused {e}")
except OSError as e:
    print(f"refused The grader could not look at build02's files ({e.strerror}).")
PY
}
report=$(inspect "${tools[@]}")
[ -n "$report" ] || refuse "The grader could not look at build02's files."
while read -r kind rest; do
  case "$kind" in
    refused) refuse "$rest" ;;
    setid) refuse "A program on build02 still runs with its owner's or its group's privileges for whoever starts it (a set-user-ID or set-group-ID bit)." ;;
  esac
done <<<"$report"
# Every tool's line comes last: without all of them the walk did not finish.
[ "$(grep -c '^mode ' <<<"$report")" = "${#tools[@]}" ] || refuse "The grader could not look at build02's files."
while read -r kind path mode; do
  [ "$kind" = mode ] || continue
  [ "$mode" != missing ] || refuse "$path is gone: the jobs still need it. Take the privilege away, not the tool."
  (( 8#$mode & 0100 )) || refuse "$path cannot be executed any more: the jobs still need to run it."
done <<<"$report"
digest=$(sed -n 's/^digest //p' <<<"$report")
[ "$digest" = "$FL_TOOLS" ] || refuse "The tools in /opt/acme-backup/bin and /usr/local are not the ones the jobs were set up with: keep them unchanged."

# Naming every tool is not an answer: the report must name the one that had the bit, and only it.
for t in "${tools[@]}"; do
  [ "$t" = "$FL_PATH" ] && continue
  if answer_mentions "$t" || answer_mentions "${t##*/}"; then
    refuse "build02 is clean, but your report also names programs that never had the privilege: name only the one that did."
  fi
done
if ! answer_mentions "$FL_PATH" && ! answer_mentions "${FL_PATH##*/}"; then
  refuse "build02 is clean, but your report does not name the program that had the privilege."
fi
echo "No program on build02 hands out privileges any more, and every tool is still in place."
