#!/bin/bash
# Grading: runs in the grader beside the target (docs/decisions/008-grading-threat-model.md), out
# of its reach, and executes nothing of the target's. Both phases:
#   pricefeed is the system's /usr/sbin/pricefeed, unaltered, as its own user, started after its
#     settings, not stopped, and writes into the file at its log's path (its standard output is
#     that file, not a rotated or deleted one): a fresh log (small) that grows while we watch;
#   live: the weeks of log were rotated, not thrown away (a rotated file beside the log, compressed
#     or not, starts with this deployment's first line), and logrotate's own parser (the grader's
#     logrotate, debug mode, on a copy of the text) does not reject /etc/logrotate.d/pricefeed;
#   after a boot: the next nightly run works, as inspect.sh tried it on the frozen copy (the image's
#     logrotate on /etc/logrotate.conf as root with the log due, pricefeed started as its init
#     script does): the log was rotated and pricefeed, unaltered, writes to the new one.
# Environment: FL_LOG (pricefeed's log), FL_MARKER; boot phase: FL_INSPECTION.
#
# One Python process with fl's functions (`fl py`, fl as `fl`) does it all: each program
# start costs, on a busy host, more than the reading itself.
fl py '
import gzip, os, re, subprocess, tempfile, time

log, phase = os.environ["FL_LOG"], os.environ["FL_PHASE"]
folder, base = log.rsplit("/", 1)

def size_of(path):
    try:
        return fl.stat_path(path).st_size
    except FileNotFoundError:
        raise fl.Refused(f"pricefeed'"'"'s log {path} is missing.")

if phase == "boot":
    # The last verdict line: inspect.sh prints it once everything the test started is gone.
    facts = dict(re.findall(r"(\w+)=(\S+)", ([""] + [l for l in os.environ.get("FL_INSPECTION", "").splitlines() if l.startswith("rotation: ")])[-1]))
    said = " ".join(l[len("logrotate: "):] for l in os.environ.get("FL_INSPECTION", "").splitlines() if l.startswith("logrotate: "))
    said = f" (logrotate: {said})" if said else ""
    if facts.get("leftovers") != "no":
        raise fl.Refused("The next nightly rotation, tried on a copy of this host, left processes behind that could not be stopped: not graded.")
    if facts.get("started") != "yes":
        raise fl.Refused("The next nightly rotation could not be tried: pricefeed, started the way its init script starts it, wrote no log.")
    if facts.get("loaded", "-") != "-":
        raise fl.Refused(f"pricefeed, started the way its init script starts it, runs with {facts['"'"'loaded'"'"']}, which is not the system'"'"'s: grading does not trust it.")
    if facts.get("rotated") != "yes":
        raise fl.Refused(f"The next nightly run of logrotate (logrotate /etc/logrotate.conf, tried on a copy of this host with the log due) does not rotate pricefeed'"'"'s log{said}.")
    if facts.get("reopened") != "yes":
        raise fl.Refused("The next nightly run of logrotate, tried on a copy of this host, moved the log away, but pricefeed kept writing into the rotated file: nothing makes it open its new log.")

argv = ["/bin/bash", "/usr/sbin/pricefeed"]
pids = fl.verified_processes(argv, "/usr/bin/bash", ["/etc/default/pricefeed"])
if not pids:
    raise fl.Refused("pricefeed is not running.")
for pid in pids:
    user = fl.user_name(fl.uid_of(pid))
    if user != "pricefeed":
        raise fl.Refused(f"pricefeed runs as {user}: it must run as its own user (use its service script).")
    with open(f"/proc/{pid}/stat", "rb") as f:
        if f.read().rsplit(b")", 1)[1].split()[0] in (b"T", b"t", b"Z", b"X"):
            raise fl.Refused(f"pricefeed (process {pid}) is stopped: it does not work.")
    writes = os.readlink(f"/proc/{pid}/fd/1")
    if writes != log:
        raise fl.Refused(f"pricefeed writes into {writes}, not into its log {log}: where do its new lines go?")
first = size_of(log)
if first >= 1 << 20:
    raise fl.Refused(f"pricefeed'"'"'s log {log} still holds weeks of lines: it has not been rotated.")
deadline = time.monotonic() + 2  # pricefeed writes a line every 0.4 s
while size_of(log) <= first:
    if time.monotonic() > deadline:
        raise fl.Refused(f"{log} is small now, but pricefeed is not writing to it.")
    time.sleep(0.2)

if phase == "live":
    kept, first_line = None, ("(boot " + os.environ["FL_MARKER"] + ")").encode()
    for name in fl.list_dir(folder):
        if name == base or not name.startswith((base + ".", base + "-")):
            continue
        try:
            data = fl.read_file(f"{folder}/{name}")
            if name.endswith(".gz"):
                data = gzip.decompress(data)
        except (OSError, EOFError, fl.Refused, gzip.BadGzipFile):
            continue
        if first_line in data.split(b"\n", 1)[0]:
            kept = name
            break
    if not kept:
        raise fl.Refused(f"The weeks of log that were in {log} are not in a rotated file beside it: rotate old logs, do not throw them away.")
    # logrotate'"'"'s own parser on the stanza'"'"'s text (the grader'"'"'s logrotate, debug mode: it runs nothing).
    try:
        text = fl.read_file("/etc/logrotate.d/pricefeed")
    except FileNotFoundError:
        raise fl.Refused("/etc/logrotate.d/pricefeed is missing: the next nights need it.")
    with tempfile.TemporaryDirectory() as tmp:
        with open(f"{tmp}/pricefeed", "wb") as f:
            f.write(text)
        out = subprocess.run(["/usr/sbin/logrotate", "-d", "-s", f"{tmp}/state", f"{tmp}/pricefeed"], capture_output=True, text=True, timeout=10)
    errors = [l.replace(f"{tmp}/", "/etc/logrotate.d/") for l in (out.stdout + out.stderr).splitlines()
              if l.startswith("error:") and "does not exist" not in l and "stat of" not in l]
    if errors:
        raise fl.Refused(f"The log is rotated, but logrotate still rejects /etc/logrotate.d/pricefeed: {errors[0]}")
print(f"pricefeed writes to a fresh {log}" + (" and the weeks of log are kept beside it;" if phase == "live" else ";") + " the nightly rotation works.")
'
