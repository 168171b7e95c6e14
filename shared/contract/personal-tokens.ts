// Personal API tokens (settings, Security tab, "API tokens"; docs/decisions/020-personal-api-tokens.md):
// a player makes a named token with a scope and an expiry, sees it once, and revokes it. The API
// takes it as `Authorization: Bearer flt_...` beside the sign-in's access tokens; what each scope
// may call is declared per operation (`personalToken` in operation.ts). These operations take
// only a sign-in's token: a personal token cannot list, make or revoke tokens; it may only read
// its own description (getCurrentPersonalToken, for a command line's login and status).
import { z } from "zod";
import { messageSchema } from "./accounts.ts";
import { defineOperations, PERSONAL_TOKEN_SCOPES } from "./operation.ts";
import {
  PERSONAL_TOKEN_EXPIRIES,
  PERSONAL_TOKEN_EXPIRY_DEFAULT,
  PERSONAL_TOKEN_NAME_MAX,
  PERSONAL_TOKEN_PATTERN,
  PERSONAL_TOKEN_PREFIX,
  PERSONAL_TOKEN_TEXTS,
  PERSONAL_TOKENS_MAX,
  type PersonalTokenExpiry,
} from "#shared/personal-token-rules.ts";

export {
  PERSONAL_TOKEN_EXPIRIES,
  PERSONAL_TOKEN_EXPIRY_DEFAULT,
  PERSONAL_TOKEN_NAME_MAX,
  PERSONAL_TOKEN_PATTERN,
  PERSONAL_TOKEN_PREFIX,
  PERSONAL_TOKEN_TEXTS,
  PERSONAL_TOKENS_MAX,
  type PersonalTokenExpiry,
};

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

/** GET /tokens/current: the token a request is made with (what `faultline login` and `status`
 *  show), and whose account it speaks for. */
export const currentPersonalTokenSchema = personalTokenSchema.pick({ id: true, name: true, scope: true, expires_at: true }).extend({
  /** The account the token speaks for (public, as on the leaderboard). */
  username: z.string(),
});
export type CurrentPersonalToken = z.infer<typeof currentPersonalTokenSchema>;

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
  getCurrentPersonalToken: {
    method: "GET",
    path: "/tokens/current",
    summary: "The personal API token this request is made with: its id, name, scope and expiry (never the token)",
    tags,
    access: "user",
    personalToken: "read",
    errors: { 404: "The request is made with a sign-in's token, not a personal API token" },
    response: currentPersonalTokenSchema,
  },
});
