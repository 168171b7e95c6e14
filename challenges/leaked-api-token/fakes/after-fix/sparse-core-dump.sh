#!/bin/bash
# Fake, after the reference fix: keep a 5 MiB sparse "core dump" of the old billing-api in /var/tmp
# with the leaked token past the first 4 MiB, beyond a search that reads only the beginning of big
# files.
set -u
python3 - "$leaked_token" <<'PY'
import sys
with open("/var/tmp/core.billing-api.1841", "wb") as f:
    f.truncate(5 * 1024 * 1024)
    f.seek(4 * 1024 * 1024 + 4096)
    f.write(b"Authorization: Bearer " + sys.argv[1].encode() + b"\r\n")
PY
ls -ls /var/tmp/core.billing-api.1841
