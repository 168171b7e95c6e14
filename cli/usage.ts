// `faultline --help`: the commands, their options and the exit codes (README.md, "Command line",
// says the same).
export const USAGE = `faultline: play faultline challenges from a terminal, with a personal API token.

Usage:
  faultline login --token <flt_...|-> [--url URL]
                        check the token and store it with the URL (default http://localhost:3000)
                        in $XDG_CONFIG_HOME/faultline/config.json (else ~/.config/faultline/),
                        file mode 0600; "--token -" reads the token from stdin
  faultline logout      forget the stored token (revoke it in Settings, Security, API tokens)
  faultline challenges [--category C] [--difficulty D] [--search S]
                        the catalogue: id, difficulty, category, points, your progress, title
  faultline start <challenge> [--no-ssh] [--timeout SECONDS]
                        start a deployment (or take the running one), wait until it is ready
                        (progress on stderr), then run ssh into it; --no-ssh prints the ssh
                        command instead (waits at most --timeout, default 300 seconds)
  faultline submit <challenge> <answer|->
                        submit an answer ("-" reads it from stdin); the check runs in the
                        deployment and its feedback is shown
  faultline status      the server, the token in use (name, scope, expiry) and your deployment
  faultline terminate [<challenge>]
                        end the deployment (of the challenge, or the one running)

Options:
  --json                machine output on stdout (one JSON document), messages on stderr;
                        on failure stdout holds {"error": {"exit_code", "detail", ...}}
                        (start --json prints the deployment and its ssh command, as --no-ssh)
  --url URL             the server (login; or FAULTLINE_URL for any command)
  -h, --help            this text

Environment:
  FAULTLINE_TOKEN, FAULTLINE_URL   used instead of the stored login (e.g. in CI)

Exit codes:
  0  done
  1  refused or incorrect: a wrong answer, no ready deployment, one that failed or is already
     running, no capacity (whatever else the API refuses, with its words)
  2  usage error: an unknown command or option, a missing argument, a value the API's contract
     refuses (an unknown --category, an empty or too long answer), checked before sending
  3  not logged in, or the token is invalid, expired or revoked (401)
  4  forbidden (403): the token's scope is too small (a read token cannot start or submit),
     or the account may not (plan, unverified e-mail, maintenance)
  5  not found (404): no such challenge, or no deployment of it
  6  rate limited (429): the message says how many seconds to wait when the API says so
  7  the server cannot be reached, or answered something that is not faultline's API, or a
     deployment was not ready within --timeout
  (start without --no-ssh ends with ssh's own exit status once ssh runs)
`;
