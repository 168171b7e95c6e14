#!/bin/bash
# Grading: runs in the grader beside ops01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of ops01's: it reads root's start-up files with `fl`, works out
# which directories a root login shell puts on PATH, and looks in each for the tool: the first
# one found must be the system's own program (same content as the grader's read-only copy). No
# alias or function may paper over it. The written answer must name the wrapper and, where a
# start-up file put its directory on PATH, that file.
# Environment: FL_TOOL, FL_WRAPPER, FL_STARTUP ("" for local_bin), FL_WRAPPER_SHA (setup.sh).
# Only the start-up files that exist are read (each `fl` call costs a process start).
etc=$(fl ls /etc 2>/dev/null); home=$(fl ls /root 2>/dev/null)
startups=()
for f in profile bash.bashrc environment; do grep -qx "$f" <<<"$etc" && startups+=("/etc/$f"); done
for f in .profile .bashrc .bash_profile .bash_login; do grep -qxF "$f" <<<"$home" && startups+=("/root/$f"); done
for f in $(fl ls /etc/profile.d 2>/dev/null); do startups+=("/etc/profile.d/$f"); done
text=""
for f in "${startups[@]}"; do
  t=$(fl read "$f" 2>/dev/null) || continue
  text+=$'\n'"$t"
done
# Whatever the shell is told about the tool's name, other than running it, hides it.
if grep -Eq "(^|[;[:space:]])(alias[[:space:]]+$FL_TOOL=|(function[[:space:]]+)?$FL_TOOL[[:space:]]*\(\)|hash[[:space:]]+-p)" <<<"$text"; then
  refuse "An alias, function or hash entry for $FL_TOOL in root's start-up files hides the problem instead of fixing it."
fi
# Directories a root login shell may search: the default PATH of /etc/profile and whatever the
# start-up files add. Outside the system's read-only directories, none may hold a different
# program under the tool's name (order does not matter: any of them could come first).
extra=$(grep -E '(^|[;[:space:]])(export[[:space:]]+)?PATH=' <<<"$text" | sed -E 's/\$\{?HOME\}?|~/\/root/g' \
  | grep -oE '/[A-Za-z0-9._/+-]+')
dirs=$(printf '%s\n' /usr/local/sbin /usr/local/bin $extra | grep -vxE '/usr/s?bin|/s?bin|/usr/(local/)?games' | awk '!seen[$0]++')
system=$(sha256sum "/usr/bin/$FL_TOOL" | cut -d' ' -f1)
for d in $dirs; do
  sum=$(fl sha256 "$d/$FL_TOOL" 2>/dev/null) || continue
  [ "$sum" = "$system" ] && continue
  # A script handing over to the real program is still a layer in between (said apart from the
  # untouched fault, so the player sees the edit was noticed).
  if [ "$sum" != "$FL_WRAPPER_SHA" ] && fl read "$d/$FL_TOOL" 2>/dev/null | grep -aq "/usr/bin/$FL_TOOL"; then
    refuse "The file that runs for $FL_TOOL was changed, but a root login shell still runs it instead of the system's own $FL_TOOL."
  fi
  refuse "In a root login shell, $FL_TOOL still does not run the system's program."
done

# The written answer: which file(s) caused it.
answer_mentions "$FL_WRAPPER" || refuse "$FL_TOOL works again, but the answer does not name the file that ran in its place (give its full path)."
if [ -n "$FL_STARTUP" ] && ! answer_mentions "$FL_STARTUP"; then
  refuse "$FL_TOOL works again, but the answer does not name the start-up file that put the wrapper's directory on root's PATH (give its full path)."
fi
echo "A root login shell runs the system's $FL_TOOL again, and the answer names the cause."
