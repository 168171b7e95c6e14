#!/bin/bash
# Grading: runs in the grader beside the target (docs/decisions/008-grading-threat-model.md),
# never inside it, and executes nothing of the target's. It asks:
#   what the front ends see: catalogd answers http://<host>:8080/v1/status with this deployment's
#     catalogue (its manifest's digest);
#   who answers: port 8080 is held only by the system's catalogd, started the usual way, as its
#     own user, from the configuration on disk;
#   what was restored: the manifest is the live one (not rewritten to fit, not rolled back) and
#     every file is the version it records: the damaged one repaired, the others not rolled back;
#   the written answer names the damaged file and an archive that held its good copy.
# Environment: FL_TARGET, FL_DAMAGED, FL_MANIFEST, FL_VALID, FL_ARCHIVES, FL_DIGESTS; FL_SUBMISSION.
url="http://${FL_TARGET}:8080/v1/status"
if ! body=$(curl -sS --max-time 5 "$url" 2>&1); then
  refuse "Nothing answers at $url (${body#curl: }). catalogd's log says why it is not running."
fi
catalogue=$(python3 -I -S -c 'import json,sys; print(json.loads(sys.argv[1]).get("catalogue", ""))' "$body" 2>/dev/null)
[ "$catalogue" = "${FL_MANIFEST:0:12}" ] ||
  refuse "Something answers at $url, but not with this host's catalogue: the files or the manifest are not the live ones."

who=$(fl service 8080 /usr/bin/python3.11 \
  --argv '["/usr/bin/python3","-I","-S","/usr/lib/catalogd/catalogd.py","/etc/catalogd/catalogd.conf"]' \
  --config /etc/catalogd/catalogd.conf) || refuse "$who"
for pid in $who; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = catalog ] || refuse "catalogd runs as $user; it must run as its own user, catalog (use its service script)."
done

manifest=$(fl sha256 /var/lib/catalogd/MANIFEST.sha256 2>/dev/null) || refuse "/var/lib/catalogd/MANIFEST.sha256 is missing."
[ "$manifest" = "$FL_MANIFEST" ] ||
  refuse "/var/lib/catalogd/MANIFEST.sha256 is not the live one: it was rewritten or rolled back, so the catalogue it vouches for is not today's."
for entry in $FL_DIGESTS; do
  name=${entry%%:*}; want=${entry#*:}
  got=$(fl sha256 "/var/lib/catalogd/$name" 2>/dev/null) || refuse "/var/lib/catalogd/$name is missing."
  if [ "$got" != "$want" ]; then
    [ "$name" = "$FL_DAMAGED" ] && refuse "/var/lib/catalogd/$name is still not the version its manifest records."
    refuse "/var/lib/catalogd/$name is not today's version: it was rolled back to an older copy."
  fi
done

# An answer that lists every candidate names nothing: one file, and not every archive.
mentions() { answer_mentions "$2" || answer_mentions "$1/$2"; }
files=0
for entry in $FL_DIGESTS; do mentions /var/lib/catalogd "${entry%%:*}" && files=$((files + 1)); done
mentions /var/lib/catalogd "$FL_DAMAGED" ||
  refuse "The catalogue is back. Your answer does not name the file that was damaged."
[ "$files" = 1 ] || refuse "The catalogue is back. Your answer names several of its files: say which one was damaged."
good=0; named=0; total=0
for a in $FL_ARCHIVES; do
  total=$((total + 1))
  mentions /var/backups/catalog "$a" || continue
  named=$((named + 1))
  [[ " $FL_VALID " == *" $a "* ]] && good=1
done
[ "$good" = 1 ] ||
  refuse "The catalogue is back. Your answer does not name a backup archive that held the damaged file's good copy."
[ "$named" -lt "$total" ] || refuse "The catalogue is back. Your answer names every archive: say which one you restored from."
echo "catalogd serves today's catalogue again, with the damaged file restored from a good backup."
