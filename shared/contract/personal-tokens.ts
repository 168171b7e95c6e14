// Personal API tokens (settings, Security tab, "API tokens"; docs/decisions/020-personal-api-tokens.md):
// a player makes a named token with a scope and an expiry, sees it once, and revokes it. The API
// takes it as `Authorization: Bearer flt_...` beside the sign-in's access tokens; what each scope
// may call is declared per operation (`personalToken` in operation.ts). These operations take
// only a sign-in's token: a personal token cannot list, make or revoke tokens.
import { z } from "zod";
import { messageSchema } from "./accounts.ts";
import { defineOperations, PERSONAL_TOKEN_SCOPES } from "./operation.ts";

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
} as const;

export const personalTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(PERSONAL_TOKEN_SCOPES),
  /** Epoch seconds. */
  created_at: z.number(),
  /** Epoch seconds; null: never. */
  expires_at: z.number().nullable(),
  /** Epoch seconds, to the minute (at most one write a minute per token); null: never used. */
  last_used_at: z.number().nullable(),
  expired: z.boolean(),
});
export type PersonalToken = z.infer<typeof personalTokenSchema>;

export const personalTokenCreateBody = z.object({
  name: z.string().trim().min(1, PERSONAL_TOKEN_TEXTS.name).max(PERSONAL_TOKEN_NAME_MAX, PERSONAL_TOKEN_TEXTS.name),
  scope: z.enum(PERSONAL_TOKEN_SCOPES),
  expires_in_days: z.enum(PERSONAL_TOKEN_EXPIRIES).default(PERSONAL_TOKEN_EXPIRY_DEFAULT),
});
export type PersonalTokenCreate = z.input<typeof personalTokenCreateBody>;

/** The new token's view and, this once, the token itself. */
export const personalTokenCreatedSchema = personalTokenSchema.extend({ token: z.string() });
export type PersonalTokenCreated = z.infer<typeof personalTokenCreatedSchema>;

const tags = ["API tokens"] as const;

export const personalTokenOperations = defineOperations({
  listPersonalTokens: {
    method: "GET",
    path: "/users/me/tokens",
    summary: "The caller's personal API tokens (never the tokens themselves), newest first",
    tags,
    access: "user",
    response: z.object({ tokens: z.array(personalTokenSchema) }),
  },
  createPersonalToken: {
    method: "POST",
    path: "/users/me/tokens",
    summary: "Make a personal API token; the answer is the only time it is shown",
    tags,
    access: "user",
    body: personalTokenCreateBody,
    status: 201,
    errors: { 429: `Already ${PERSONAL_TOKENS_MAX} tokens` },
    response: personalTokenCreatedSchema,
  },
  revokePersonalToken: {
    method: "DELETE",
    path: "/users/me/tokens/:id",
    summary: "Revoke one of the caller's personal API tokens; it stops working at once",
    tags,
    access: "user",
    params: z.object({ id: z.string() }),
    errors: { 404: "No such token of the caller's" },
    response: messageSchema,
  },
});
