#!/bin/bash
# Fake, after the reference fix (which keeps the job in $answer_job and the payload line it
# removed in $payload), then put the payload back after the job's last line with
# a vertical tab instead of a newline before a '#': a reader that splits lines at any line break
# (Python's splitlines) sees a comment line, bash sees one line whose '#' is inside a word, then
# a ';' and the payload.
[ -n "$answer_job" ] && [ -n "$payload" ] || { echo "no payload found"; exit 1; }
python3 - "$answer_job" "$payload" <<'PY'
import sys
path, payload = sys.argv[1], sys.argv[2]
data = open(path, "rb").read().rstrip(b"\n")
open(path, "wb").write(data + b"\x0b#;" + payload.encode() + b"\n")
PY
tail -c 200 "$answer_job" | od -c | tail -5
