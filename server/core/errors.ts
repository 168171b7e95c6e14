// The one error type a domain service throws for an expected failure. The API turns it into
// the envelope {"detail": "..."} with this status; anything else becomes a 500 without details.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string) => new ApiError(400, detail);
export const unauthorized = (detail = "Not authenticated") => new ApiError(401, detail);
export const forbidden = (detail = "Forbidden") => new ApiError(403, detail);
export const notFound = (detail = "Not found") => new ApiError(404, detail);
export const conflict = (detail: string) => new ApiError(409, detail);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiError(429, `Too many attempts. Try again in ${retryAfterSeconds} seconds.`, {
    retry_after: retryAfterSeconds,
  });
