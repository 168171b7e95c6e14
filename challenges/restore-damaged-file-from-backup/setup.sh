#!/bin/bash
# Injects the fault (run as root inside the deployment, fed on stdin, never stored there): writes
# a week of the catalogue's history (random files, contents and change times), its nightly backup
# archives (random run ids) and its manifest, then the damage: one file (random) truncated or
# with a block of zeroes, and, depending on the fault (FAULTLINE_FAULT forces one), the newest
# archive truncated by the same disk-full night or the damage already in the last archives.
# catalogd then refuses to start. Prints the check's values and the written answer's candidates as
# JSON on its last line.
set -euo pipefail
faults=(newest_archive_truncated damage_in_recent_archives zeroed_block)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
service catalogd stop >/dev/null 2>&1 || true
mkdir -p /var/lib/catalogd /var/backups/catalog /var/log/catalogd
rm -rf /var/lib/catalogd/* /var/backups/catalog/* /var/log/catalogd/*
FAULT=$fault python3 -I -S - <<'PY'
import hashlib, io, json, os, pwd, random, tarfile, time

fault = os.environ["FAULT"]
DATA, BK = "/var/lib/catalogd", "/var/backups/catalog"
cat = pwd.getpwnam("catalog")
now = time.time()
last = (int(now) // 86400) * 86400 + 2 * 3600 + 600          # 02:10 UTC
if last > now - 3600:
    last -= 86400
bt = {d: last - (d - 1) * 86400 for d in range(1, 6)}         # backups, d nights ago
t0 = bt[5] - 86400 * 2

words = "alpine basalt cedar delta ember fjord granite harbor iris juniper kestrel lumen meadow nimbus".split()
def content(name):
    r = random.Random(os.urandom(8))
    if name == "products.json":
        rows = [{"id": 10000 + i, "name": f"{r.choice(words)} {r.choice(words)}", "price_cents": r.randint(199, 99999), "stock": r.randint(0, 500)} for i in range(r.randint(250, 450))]
        return (json.dumps(rows, indent=1) + "\n").encode()
    if name == "pricing.csv":
        return ("sku,currency,list_cents,discount_pct\n" + "".join(f"{10000 + i},{r.choice(['EUR', 'USD', 'GBP'])},{r.randint(199, 99999)},{r.choice([0, 0, 5, 10, 15])}\n" for i in range(r.randint(600, 1200)))).encode()
    if name == "tenants.json":
        return (json.dumps({f"tenant-{r.randint(100, 999)}-{i}": {"plan": r.choice(["basic", "pro", "enterprise"]), "region": r.choice(["eu", "us", "ap"])} for i in range(r.randint(150, 300))}, indent=1) + "\n").encode()
    return "".join(f"route /{r.choice(words)}/{i} -> backend-{r.randint(1, 9)}:80{r.randint(10, 99)}\n" for i in range(r.randint(500, 900))).encode()

names = ["products.json", "pricing.csv", "tenants.json", "routes.conf"]
damaged = random.choice(names)
versions = {n: [(t0, content(n))] for n in names}              # (time, bytes), good versions
if fault == "newest_archive_truncated":
    k = random.choice([4, 3, 2])
    damage_at = bt[1] - random.randint(30, 300)               # the disk filled up during that night
    valid = list(range(k, 1, -1))
else:
    k = random.choice([5, 4, 3])
    damage_at = random.randint(int(bt[3]) + 3600, int(bt[2]) - 3600)
    valid = list(range(k, 2, -1))
versions[damaged].append((bt[k] - 3600 * random.randint(2, 18), content(damaged)))
for n in names:
    if n != damaged and random.random() < 0.5:
        versions[n].append((random.randint(int(t0) + 3600, int(bt[1]) - 3600), content(n)))
for n in random.sample([n for n in names if n != damaged], 2):  # changed today, after the last backup
    versions[n].append((random.randint(int(bt[1]) + 600, int(now) - 120), content(n)))
for n in names:
    versions[n].sort(key=lambda v: v[0])
good = versions[damaged][-1][1]
if fault == "zeroed_block":
    blocks = len(good) // 4096
    at = random.randint(1, max(1, blocks - 1)) * 4096
    bad = good[:at] + b"\0" * min(4096, len(good) - at) + good[at + 4096:]
else:
    bad = good[: int(len(good) * random.uniform(0.35, 0.8))]

def state(t):
    files = {}
    for n in names:
        vt, data = [v for v in versions[n] if v[0] <= t][-1]
        if n == damaged and damage_at <= t:
            vt, data = damage_at, bad
        files[n] = (vt, data)
    manifest = "".join(f"{hashlib.sha256([v for v in versions[n] if v[0] <= t][-1][1]).hexdigest()}  {n}\n" for n in names).encode()
    return files, manifest

def add(tar, name, data, mtime):
    info = tarfile.TarInfo(f"var/lib/catalogd/{name}")
    info.size, info.mtime, info.mode = len(data), mtime, 0o640
    info.uid, info.gid, info.uname, info.gname = cat.pw_uid, cat.pw_gid, "catalog", "catalog"
    tar.addfile(info, io.BytesIO(data))

archives = {}
for d in range(5, 0, -1):
    files, manifest = state(bt[d])
    stamp = time.strftime("%Y%m%d", time.gmtime(bt[d]))
    name = f"catalog-{stamp}-{os.urandom(2).hex()}.tar.gz"
    path = os.path.join(BK, name)
    with tarfile.open(path, "w:gz") as tar:
        for n in names:
            add(tar, n, files[n][1], files[n][0])
        add(tar, "MANIFEST.sha256", manifest, max(v[0] for v in files.values()))
    if d == 1 and fault == "newest_archive_truncated":
        size = os.path.getsize(path)
        os.truncate(path, int(size * random.uniform(0.45, 0.7)))
    os.utime(path, (bt[d] + 40, bt[d] + 40))
    archives[d] = name

files, manifest = state(now)
for n, (vt, data) in files.items():
    p = os.path.join(DATA, n)
    with open(p, "wb") as f:
        f.write(data)
    os.chown(p, cat.pw_uid, cat.pw_gid); os.chmod(p, 0o640); os.utime(p, (vt, vt))
p = os.path.join(DATA, "MANIFEST.sha256")
with open(p, "wb") as f:
    f.write(manifest)
os.chown(p, cat.pw_uid, cat.pw_gid); os.chmod(p, 0o640)
mt = max(v[0] for n in names for v in versions[n])
os.utime(p, (mt, mt))

iso = lambda t: time.strftime("%Y-%m-%dT%H:%M:%S+0000", time.gmtime(t))
with open("/var/log/catalogd/catalogd.log", "w") as f:
    f.write(f"{iso(t0 + 300)} INFO catalogd 3.2.0: 5 files verified, catalogue {hashlib.sha256(state(t0 + 300)[1]).hexdigest()[:12]}, listening on port 8080\n")
    for n in names:
        for vt, _ in versions[n][1:]:
            f.write(f"{iso(vt)} INFO updated {n}, MANIFEST.sha256 rewritten\n")
with open("/var/log/catalog-sync.log", "w") as f:
    f.write(f"{iso(damage_at - 5)} catalog-sync: refreshing {damaged} in place from the upstream feed\n")
    if fault != "zeroed_block":
        f.write(f"{iso(damage_at)} catalog-sync: write error on {DATA}/{damaged}: No space left on device\n")
    f.write(f"{iso(damage_at + 1)} catalog-sync: done\n")
os.chown("/var/log/catalogd/catalogd.log", cat.pw_uid, cat.pw_gid)
# The written answer's parts: the damaged file among the catalogue's files, an archive that held
# its good copy among every archive.
print(json.dumps({
    "damaged": damaged,
    "damaged_path": f"{DATA}/{damaged}",
    "files": [f"{DATA}/{n}" for n in names],
    "manifest": hashlib.sha256(manifest).hexdigest(),
    "valid": [f"{BK}/{archives[d]}" for d in valid],
    "archives": [f"{BK}/{archives[d]}" for d in range(5, 0, -1)],
    "digests": " ".join(f"{n}:{hashlib.sha256(versions[n][-1][1]).hexdigest()}" for n in names),
}), file=open("/run/catalog-setup.json", "w"))
PY
values=$(cat /run/catalog-setup.json); rm -f /run/catalog-setup.json
# The reboot after the disk-full night: catalogd checks its files and refuses to start.
service catalogd start >/dev/null 2>&1 || true
printf 'df -h /var\nservice catalogd start\ntail /var/log/catalogd/catalogd.log\nexit\n' >/root/.bash_history
echo "{\"fault\":\"$fault\",${values#\{}"
