# The grader's prelude, put around every check.sh by the platform (server/runtime/scenario.ts).
# The check runs in the grader container: the challenge's read-only image, its own /etc and
# /tmp, in the host's PID namespace (the target cannot see, signal or trace it), on the
# deployment's network as another host. It never executes a file of the target: `fl` (fl.py,
# below) reads the target's files, processes and sockets from the side. FL_PHASE says which system
# it judges: "live" (the player's deployment as it is) or "boot" (a copy of its disk, booted).
# See docs/decisions/008-grading-threat-model.md and challenges/README.md.
set -u -o pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8
umask 077
cat >/tmp/fl.py <<'__FL_PY__'
@FL_PY@
__FL_PY__
cat >/tmp/firewall.py <<'__FL_FIREWALL__'
@FL_FIREWALL@
__FL_FIREWALL__
cat >/tmp/routes.py <<'__FL_ROUTES__'
@FL_ROUTES@
__FL_ROUTES__

# Fail closed: a command that dies by a signal (status 128 and above) did not answer, whatever the
# check makes of its status. It leaves a mark that turns the verdict into "not correct", from any
# subshell or pipeline. SIGPIPE is the exception: the reader had what it wanted (`... | grep -q`),
# and the writer's end is a success, so pipefail never turns a match into "no match".
FL_INTERRUPTED=/tmp/fl-interrupted
fl_status() {
  case $1 in
    141) return 0 ;;
    12[89] | 1[3-9][0-9] | 2[0-9][0-9]) : >"$FL_INTERRUPTED" ;;
  esac
  return "$1"
}
# fl COMMAND ARGS...: see the command list at the end of fl.py. Exit 1 = refused (the message,
# one line for the user, is on stdout), 3 = a file does not exist. `@NAME` / `@{NAME}` in an
# argument is FL_NAME's value: values never go into a command line.
fl() { /usr/bin/python3 -I -S /tmp/fl.py "$@"; fl_status $?; }
for fl_tool in awk cat comm curl cut dig getent grep head host md5sum nc openssl python3 sed sha256sum sleep sort ssh ssh-keyscan tail timeout tr uniq wc; do
  eval "$fl_tool() { command $fl_tool \"\$@\"; fl_status \$?; }"
done
unset fl_tool
# fetch URL [CURL OPTIONS...]: curl with the URL in its configuration, never in its command line
# (a URL often holds a deployment's values).
fetch() {
  local url=$1
  shift
  curl -K - "$@" <<<"url = \"${url//\"/\\\"}\""
}
# refuse MESSAGE: the check's answer is "not fixed", with MESSAGE as the feedback.
refuse() { printf '%s\n' "$@"; exit 1; }
# api_answers BASE NAME LOOKUP ID REFUSED TIMEOUT WRONG_LOOKUP: a client's calls to the HTTP API
# at BASE: /health must answer 200 as this host's NAME (its Server header, FL_INSTANCE in the
# body), and BASE+LOOKUP 200 with ID in the body. REFUSED, TIMEOUT, WRONG_LOOKUP: the refusals for
# a refused connection, one that times out, and a lookup that does not return this host's record.
# Scratch files in the check's $tmp.
api_answers() {
  local base=$1 name=$2 lookup=$3 id=$4 code rc body
  code=$(fetch "$base/health" -sS --connect-timeout 3 --max-time 5 -D "$tmp/headers" -o "$tmp/body" -w '%{http_code}' 2>"$tmp/err")
  rc=$?
  case $rc in
    0) ;;
    7) refuse "$5" ;;
    28) refuse "$6" ;;
    *) refuse "Calling $base/health from another host failed: $(sed 's/^curl: ([0-9]*) //' "$tmp/err")" ;;
  esac
  grep -qi "^server: $name/" "$tmp/headers" || refuse "Something answers on port $FL_PORT of $FL_TARGET, but it is not $name."
  body=$(cat "$tmp/body")
  [ "$code" = 200 ] && [[ "$body" == *"\"instance\": \"$FL_INSTANCE\""* ]] || refuse "Port $FL_PORT answers HTTP $code, but not with this host's $name."
  code=$(fetch "$base$lookup" -sS --connect-timeout 3 --max-time 5 -D "$tmp/headers" -o "$tmp/body" -w '%{http_code}' 2>"$tmp/err")
  rc=$?
  body=$(cat "$tmp/body")
  [ "$rc" = 0 ] && [ "$code" = 200 ] && [[ "$body" == *"\"$id\""* ]] || refuse "$7"
}
# The grader's HTTP client looks like one of the story's clients, another one at each check
# (FL_CLIENT_AGENT, chosen by the platform), never like a grader.
export CURL_HOME=/tmp/fl-curl
mkdir -p "$CURL_HOME"
printf 'user-agent = "%s"\n' "${FL_CLIENT_AGENT:-curl/7.88.1}" >"$CURL_HOME/.curlrc"
# Every check: a system that preloads libraries into every program is not graded.
gate_msg=$(fl gate) || refuse "$gate_msg"
unset gate_msg
# The check runs in a subshell: its own `exit` and `trap ... EXIT` stay its own, and the mark of
# an interrupted command is read after it, whatever it did.
(
# ---- check.sh
@CHECK@
)
fl_verdict=$?
if [ -e "$FL_INTERRUPTED" ]; then
  echo "The check was interrupted (a command it ran did not finish): not graded. Submit again."
  exit 1
fi
exit "$fl_verdict"
