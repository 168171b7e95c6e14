#!/bin/bash
# Grading: runs in the grader beside ops03 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of ops03's. It reads the sudo rules with `fl` the way sudo does
# (/etc/sudoers, then the files of /etc/sudoers.d it includes, skipping names with a dot or a
# trailing ~): the rule that leads to root must not be read any more; then /etc/sudoers and the
# reviewed rules must be as installed (the grader has the image's originals at the same paths),
# this week's on-call rule as it was, and nothing else in /etc/sudoers.d. The account and rule
# never go into a command's arguments (bash builtins only).
# Environment: FL_USER, FL_RULE, FL_ONCALL, FL_SUBMISSION.
d=/etc/sudoers.d
reviewed=(10-deploy 20-ci-runner 30-reportsync)
sudoers=$(fl read /etc/sudoers) || refuse "The grader could not read /etc/sudoers: $sudoers"
names=$(fl ls "$d") || refuse "The grader could not list $d: $names"

# rules TEXT: the text's lines without comments, blanks collapsed (sudo's #include is not a comment).
rules() {
  local line words
  while IFS= read -r line; do
    case "$line" in '#include'*) ;; *) line=${line%%#*} ;; esac
    read -r -a words <<<"$line"
    [ ${#words[@]} -gt 0 ] && printf '%s\n' "${words[*]}"
  done
}
read -r -a words <<<"$FL_RULE"; want="${words[*]}"
read_by_sudo=$(rules <<<"$sudoers")
if grep -qxE '[@#]includedir /etc/sudoers\.d/?' <<<"$read_by_sudo"; then
  for n in $names; do
    case "$n" in *.*|*'~') continue ;; esac
    text=$(fl read "$d/$n") || refuse "The grader could not read $d/$n: $text"
    read_by_sudo+=$'\n'"$(rules <<<"$text")"
  done
fi
while IFS= read -r line; do
  [ "$line" = "$want" ] && refuse "sudo still grants a rule that lets an ordinary account become root."
done <<<"$read_by_sudo"

# What must stay: sudo's own file, the reviewed rules, this week's on-call rule, and nothing else.
same=$(fl pristine /etc/sudoers) || refuse "/etc/sudoers is not as installed: restore it (the rules belong in /etc/sudoers.d, reviewed)."
for n in "${reviewed[@]}"; do
  fl exists "$d/$n" || refuse "The reviewed rule $d/$n is gone: its account still needs it. Remove only what leads to root."
  same=$(fl pristine "$d/$n") || refuse "The reviewed rule $d/$n is not as it was reviewed: restore it rather than rewriting it."
done
[ "$(fl sha256 "$d/15-oncall" 2>/dev/null)" = "$FL_ONCALL" ] ||
  refuse "This week's on-call rule ($d/15-oncall) is not as it was: the on-call engineers must keep their access."
for n in $names; do
  case " README 15-oncall ${reviewed[*]} " in *" $n "*) continue ;; esac
  refuse "$d holds a file that is not one of the reviewed rules ($n): even a file sudo skips does not belong there."
done

# Naming every service account is not an answer (one other may come up in passing: "deploy" and
# "monitor" are plain words too).
others=0
for u in deploy ci-runner reportsync monitor; do
  [ "$u" != "$FL_USER" ] && answer_mentions "$u" && others=$((others + 1))
done
[ "$others" -lt 2 ] || refuse "sudo is safe again, but your report also names accounts that could not become root: name only the one that could."
answer_mentions "$FL_USER" || refuse "sudo is safe again, but your report does not name the account that could become root."
echo "No sudo rule on ops03 leads to root any more, and the reviewed and on-call rules work as before."
