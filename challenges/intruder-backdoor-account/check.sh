#!/bin/bash
# Grading: runs in the grader beside bastion01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of bastion01's. It reads the account files with `fl` and compares
# them with the image's originals, which the grader has at the same paths in its own read-only
# /etc: /etc/passwd and /etc/group must be as installed (the intruder's account gone or disarmed,
# every other account kept), /etc/shadow must hold the team's passwords of this deployment and no
# usable password for the intruder's account. The intruder's account name never goes into a
# command's arguments (the player sees the grader's command lines): bash builtins only.
# Environment: FL_ACCOUNT, FL_SHADOW (digest of the shadow lines that must stay), FL_SUBMISSION.
passwd=$(fl read /etc/passwd) || refuse "The grader could not read /etc/passwd: $passwd"
group=$(fl read /etc/group) || refuse "The grader could not read /etc/group: $group"
shadow=$(fl read /etc/shadow) || refuse "The grader could not read /etc/shadow: $shadow"

# uid 0 is root's alone.
while IFS=: read -r name _ uid _; do
  if [ "$uid" = 0 ] && [ "$name" != root ]; then
    refuse "An account other than root still has user id 0 in /etc/passwd: whoever knows its password is root."
  fi
done <<<"$passwd"

# /etc/passwd and /etc/group: exactly the installed accounts and groups.
compare() { # compare FILE CONTENT KIND ("account" or "group")
  local installed missing added gone new
  local a=An; [ "$3" = group ] && a=A
  installed=$(cat "$1")
  missing=$(comm -23 <(sort <<<"$installed") <(sort <<<"$2"))
  added=$(comm -13 <(sort <<<"$installed") <(sort <<<"$2"))
  gone=$(comm -23 <(cut -d: -f1 <<<"$missing" | sort -u) <(cut -d: -f1 <<<"$added" | sort -u) | grep .)
  new=$(comm -13 <(cut -d: -f1 <<<"$missing" | sort -u) <(cut -d: -f1 <<<"$added" | sort -u) | grep .)
  [ -z "$gone" ] || refuse "$a $3 that belongs on bastion01 is gone from $1: take away only what the intruder set up."
  [ -z "$new" ] || refuse "$1 still has ${a,} $3 that is not one of bastion01's own."
  [ -z "$added" ] || refuse "$a $3 in $1 is not as it was installed (shell, home, ids or members changed): the intruder's changes are still there."
}
compare /etc/passwd "$passwd" account
compare /etc/group "$group" group

# /etc/shadow: the team's passwords of this deployment untouched; the intruder's account, if it
# still has a line, cannot log in with a password.
kept=""
while IFS= read -r line; do
  if [ "${line%%:*}" = "$FL_ACCOUNT" ]; then
    hash=${line#*:}; hash=${hash%%:*}
    case "$hash" in
      '!'*|'*'*) ;;
      *) refuse "/etc/shadow still holds a usable password for the account the intruder logged in with." ;;
    esac
  else
    kept+="$line"$'\n'
  fi
done <<<"$shadow"
if [ "$(printf '%s' "$kept" | sha256sum | cut -d' ' -f1)" != "$FL_SHADOW" ]; then
  refuse "/etc/shadow does not hold the team's passwords as they were: the team's own accounts must keep working."
fi

# Naming every possible account is not an answer (the same lists setup.sh picks from). Service
# accounts' names are also plain words ("list", "backup", "news"): one of them is allowed.
others=0
for a in sysmaint svc-update ntpsync cachemgr dbus-agent mon-agent pkgsync netcfg logrotd kmsync; do
  [ "$a" != "$FL_ACCOUNT" ] && answer_mentions "$a" && others=2
done
for a in games lp news uucp proxy list irc backup; do
  [ "$a" != "$FL_ACCOUNT" ] && answer_mentions "$a" && others=$((others + 1))
done
[ "$others" -lt 2 ] || refuse "bastion01 is clean, but your report also names accounts the intruder did not use: name only the one they logged in with."
if ! answer_mentions "$FL_ACCOUNT"; then
  refuse "bastion01 is clean, but your report does not name the account the intruder logged in with."
fi
echo "The intruder's account is closed, and the team's accounts are as they were."
