# The grader's prelude, put before every check.sh by the platform (server/runtime/scenario.ts).
# The check runs in the grader container: the challenge's read-only image, its own /etc and
# /tmp, in the target's PID namespace, on the deployment's network as another host. It never
# executes a file of the target: `fl` (fl.py, below) reads the target's files, processes and
# sockets from the side. See docs/decisions/008-grading-threat-model.md and challenges/README.md.
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8
umask 077
cat >/tmp/fl.py <<'__FL_PY__'
@FL_PY@
__FL_PY__
# fl COMMAND ARGS...: see the command list at the end of fl.py. Exit 1 = refused (the message,
# one line for the user, is on stdout), 3 = a file does not exist.
fl() { /usr/bin/python3 -I -S /tmp/fl.py "$@"; }
# refuse MESSAGE: the check's answer is "not fixed", with MESSAGE as the feedback.
refuse() { printf '%s\n' "$@"; exit 1; }
# answer_mentions TEXT: the player's written answer (FL_SUBMISSION) names TEXT, case-insensitively,
# as a whole word. Bash builtins only: an external grep would show TEXT in the target's `ps`.
answer_mentions() {
  local words=" ${FL_SUBMISSION:-} " want="$1" found=1
  words=${words//[^[:alnum:]_.\/:@-]/ }
  # A sentence's full stop or colon is not part of the word before it ("it was deploy.").
  words=${words//. / }; words=${words//: / }; words=${words//, / }
  shopt -s nocasematch
  [[ " $words " == *" $want "* ]] && found=0
  shopt -u nocasematch
  return $found
}
# Every check: a system that preloads libraries into every program is not graded.
gate_msg=$(fl gate) || refuse "$gate_msg"
unset gate_msg
# ---- check.sh
