#!/bin/bash
# Fake: make the manifest fit the damaged file instead of repairing the file. Where the damaged
# file is products.json and no longer parses, it is cut back to an empty catalogue first, so that
# catalogd starts whichever file was damaged (a fake that leaves catalogd down proves nothing).
cd /var/lib/catalogd
python3 -I -S -c 'import json; json.load(open("products.json"))' 2>/dev/null || echo '[]' >products.json
for f in $(awk '{print $2}' MANIFEST.sha256); do sha256sum "$f"; done >MANIFEST.new
cat MANIFEST.new >MANIFEST.sha256 && rm -f MANIFEST.new
# Its start waits 3 s for the port; a starved machine can take longer.
for _ in 1 2 3; do service catalogd start && break; sleep 1; done
