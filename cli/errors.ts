// How the command ends (README.md, "Command line"; `faultline --help`): one exit code per kind of
// outcome, so scripts can tell "wrong answer" from "log in again" from "the server is down".
export const EXIT = {
  ok: 0,
  /** A refused or incorrect outcome: a wrong answer, no ready deployment, one already running,
   *  no capacity (the API's 400, 409, 503 and other refusals). */
  refused: 1,
  /** What was typed is wrong: an unknown command or option, a missing argument, or input the
   *  contract's own schemas refuse (checked before anything is sent). */
  usage: 2,
  /** Not logged in, or the token is invalid, expired or revoked (401). */
  unauthenticated: 3,
  /** Forbidden (403): the token's scope is too small, or the account may not (plan, e-mail). */
  forbidden: 4,
  /** Not found (404): no such challenge, no deployment of it. */
  notFound: 5,
  /** Rate limited (429): wait `retry_after` seconds when the API gives one. */
  rateLimited: 6,
  /** The server cannot be reached, or answered something that is not faultline's API. */
  unreachable: 7,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An outcome that ends the command: its text (the API's `detail` where there is one) and code. */
export class CliError extends Error {
  constructor(
    readonly code: ExitCode,
    message: string,
    /** More for --json: the HTTP status, retry_after. */
    readonly extra: { status?: number; retry_after?: number } = {},
  ) {
    super(message);
  }
}

/** The exit code of an API answer that is not a success. */
export function exitOfStatus(status: number): ExitCode {
  if (status === 401) return EXIT.unauthenticated;
  if (status === 403) return EXIT.forbidden;
  if (status === 404) return EXIT.notFound;
  if (status === 429) return EXIT.rateLimited;
  if (status >= 400 && status < 500) return EXIT.refused;
  // 503: a feature not running or no capacity, said by the API: refused, not "unreachable".
  if (status === 503) return EXIT.refused;
  return EXIT.unreachable;
}

/** A word typed by the user, fit to echo in a message: never something that may be a token. */
export const echo = (word: string) => (/flt_/i.test(word) ? "(hidden: it looks like a token)" : word);
