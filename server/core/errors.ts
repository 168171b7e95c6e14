// The one error type a domain service throws for an expected failure: what went wrong, by kind,
// in words a person may read (`detail`), with optional fields for the caller (`extra`, e.g.
// retry_after). Core knows no transport: the API maps kinds to HTTP statuses in one table
// (server/api/errors.ts), the live channel to close codes (server/http/live.ts), the CLI to a message
// and an exit status (server/cli.ts). Anything else thrown is a bug: a 500 without details.
export const ERROR_KINDS = [
  /** The input is wrong (a field, a key, a code). */
  "invalid",
  /** Who asks is not known (no or a bad credential, a wrong password). */
  "unauthenticated",
  /** Known, but not allowed. */
  "forbidden",
  "not_found",
  /** The state does not allow it (already exists, not ready, already enabled). */
  "conflict",
  /** The request is larger than accepted. */
  "too_large",
  /** Too many attempts, or too many at once; `extra.retry_after` in seconds when known. */
  "rate_limited",
  /** A service we depend on (an identity provider) failed. */
  "upstream_failed",
  /** Not possible right now (no engine, no room, not configured). */
  "unavailable",
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly detail: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(detail);
    this.name = "DomainError";
  }
}

export const badRequest = (detail: string) => new DomainError("invalid", detail);
export const unauthorized = (detail = "Not authenticated") => new DomainError("unauthenticated", detail);
export const forbidden = (detail = "Forbidden") => new DomainError("forbidden", detail);
export const notFound = (detail = "Not found") => new DomainError("not_found", detail);
export const conflict = (detail: string) => new DomainError("conflict", detail);
export const tooLarge = (detail: string) => new DomainError("too_large", detail);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new DomainError("rate_limited", `Too many attempts. Try again in ${retryAfterSeconds} seconds.`, {
    retry_after: retryAfterSeconds,
  });
/** A limit reached with no time to wait out (e.g. deployments at once): rate_limited, no retry_after. */
export const limitReached = (detail: string) => new DomainError("rate_limited", detail);
export const upstreamFailed = (detail: string) => new DomainError("upstream_failed", detail);
export const unavailable = (detail: string) => new DomainError("unavailable", detail);
