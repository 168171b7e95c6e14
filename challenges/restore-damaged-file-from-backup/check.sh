#!/bin/bash
# Grading: runs in the grader beside the target (docs/decisions/008-grading-threat-model.md), out
# of its reach, and executes nothing of the target's. Both phases (live, and a booted copy of its
# disk, where catalogd must come up from what is on disk):
#   what the front ends see: catalogd answers http://<host>:8080/v1/status, to a client that looks
#     like any other, with this deployment's catalogue (its manifest's digest);
#   who answers: port 8080 is held only by the system's catalogd, started the usual way, as its
#     own user, from its configuration as installed;
#   what was restored: the manifest is the live one (not rewritten to fit, not rolled back) and
#     every file is the version it records, in place (a regular file in /var/lib/catalogd): the
#     damaged one repaired, the others not rolled back.
# The written answer (which file, from which archive) is judged by the platform (challenge.yaml
# answer:). Environment: FL_TARGET, FL_DAMAGED, FL_MANIFEST, FL_DIGESTS.
url="http://${FL_TARGET}:8080/v1/status"
if ! body=$(fetch "$url" -sS --max-time 5 2>&1); then
  refuse "Nothing answers at $url (${body#curl: }). catalogd's log says why it is not running."
fi
[[ "$body" =~ \"catalogue\":\ \"([0-9a-f]*)\" ]] && [ "${BASH_REMATCH[1]}" = "${FL_MANIFEST:0:12}" ] ||
  refuse "Something answers at $url, but not with this host's catalogue: the files or the manifest are not the live ones."

# One Python process with fl's functions (`fl py`, fl as `fl`) does the rest: each program
# start costs, on a busy host, more than the reading itself.
fl py '
import hashlib, os, stat

def digest(path):
    """sha256 of every byte of the regular file at path itself (not one a link leads to)."""
    try:
        fd, where = fl.resolve(path)
    except FileNotFoundError:
        raise fl.Refused(f"{path} is missing.")
    try:
        if where != path or not stat.S_ISREG(os.fstat(fd).st_mode):
            raise fl.Refused(f"{path} is not the file itself any more (it leads to {where}): restore the file in place.")
        h = hashlib.sha256()
        for chunk in fl.stream(fd):
            h.update(chunk)
        return h.hexdigest()
    finally:
        os.close(fd)

pids = fl.verify_listener(8080, "/usr/bin/python3.11",
    [["/usr/bin/python3", "-I", "-S", "/usr/lib/catalogd/catalogd.py", "/etc/catalogd/catalogd.conf"]],
    ["/etc/catalogd/catalogd.conf"])
for pid in pids:
    user = fl.user_name(fl.uid_of(pid))
    if user != "catalog":
        raise fl.Refused(f"catalogd runs as {user}; it must run as its own user, catalog (use its service script).")
try:
    fl.pristine("/etc/catalogd/catalogd.conf")
except fl.Refused:
    raise fl.Refused("/etc/catalogd/catalogd.conf was changed: catalogd must serve its own data directory, as installed.")

data = "/var/lib/catalogd"
if digest(f"{data}/MANIFEST.sha256") != os.environ["FL_MANIFEST"]:
    raise fl.Refused(f"{data}/MANIFEST.sha256 is not the live one: it was rewritten or rolled back, so the catalogue it vouches for is not today'"'"'s.")
for entry in os.environ["FL_DIGESTS"].split():
    name, want = entry.split(":", 1)
    if digest(f"{data}/{name}") != want:
        if name == os.environ["FL_DAMAGED"]:
            raise fl.Refused(f"{data}/{name} is still not the version its manifest records.")
        raise fl.Refused(f"{data}/{name} is not today'"'"'s version: it was rolled back to an older copy.")
print("catalogd serves today'"'"'s catalogue again, with the damaged file restored from a good backup.")
'
