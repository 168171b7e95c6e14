// Personal API tokens' limits and sentences, shown by the API and the settings page alike (a
// leaf without zod, so the browser bundle may take it; the contract is
// shared/contract/personal-tokens.ts).

/** Every token starts with it, so a leaked one is recognised (secret scanners, logs). */
export const PERSONAL_TOKEN_PREFIX = "flt_";
/** The prefix, then 32 random bytes in base64url. */
export const PERSONAL_TOKEN_PATTERN = /^flt_[A-Za-z0-9_-]{43}$/;
/** Tokens a user may hold at once (expired ones do not count). */
export const PERSONAL_TOKENS_MAX = 20;
export const PERSONAL_TOKEN_NAME_MAX = 64;
/** The expiries offered, in days; "none" never expires. */
export const PERSONAL_TOKEN_EXPIRIES = ["30", "90", "365", "none"] as const;
export type PersonalTokenExpiry = (typeof PERSONAL_TOKEN_EXPIRIES)[number];
export const PERSONAL_TOKEN_EXPIRY_DEFAULT: PersonalTokenExpiry = "90";
export const PERSONAL_TOKEN_TEXTS = {
  limit: `You have ${PERSONAL_TOKENS_MAX} API tokens, the most an account may hold. Revoke one you no longer use first.`,
  name: `Give the token a name of 1 to ${PERSONAL_TOKEN_NAME_MAX} characters`,
  created: "Token created. Copy it now: it will not be shown again.",
  revoked: "Token revoked",
  notFound: "No such token",
  scope: "This API token's scope does not allow this operation",
  notPersonal: "This request is not made with a personal API token",
} as const;
