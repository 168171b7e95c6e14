// How the API answers a failure: the one table from a domain error's kind (server/core/errors.ts)
// to an HTTP status, and the envelope {"detail": "...", ...extra} (docs/api.md, "Errors").
// Anything that is not a domain error is a bug: logged, and answered 500 without details.
import { DomainError, type ErrorKind } from "#server/core/errors.ts";
import type { Logger } from "#server/logger.ts";

export const HTTP_STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  upstream_failed: 502,
  unavailable: 503,
};

export const json = (data: unknown, status = 200, headers?: HeadersInit) =>
  Response.json(data, { status, headers: { "cache-control": "no-store", ...headers } });

export function errorResponse(e: unknown, log: Logger): Response {
  if (e instanceof DomainError) {
    const headers: Record<string, string> = {};
    if (e.kind === "rate_limited" && e.extra?.retry_after) headers["retry-after"] = String(e.extra.retry_after);
    return json({ detail: e.detail, ...e.extra }, HTTP_STATUS[e.kind], headers);
  }
  log.error("unhandled error in API", e);
  return json({ detail: "Internal server error" }, 500);
}
