// The API's JSON shapes for accounts: sign-up and sign-in, tokens, the user views and OAuth
// (docs/api.md, "Authentication" and "Users"). The server's services declare their results as
// these types and the web's API client reads them, so each shape is written once.
import { z } from "zod";
import { PLAN_NAMES } from "#shared/plans.ts";
import { NOTIFICATION_KEYS } from "#shared/rules.ts";
import { loginBody, logoutBody, oauthCallbackBody, providerParam, refreshBody, registerBody, resendBody, secondFactorBody, tokenBody } from "./inputs.ts";
import { defineOperations } from "./operation.ts";
import { achievementSchema } from "./scoring.ts";

export const OAUTH_PROVIDERS = ["github", "google"] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

export const THEMES = ["dark", "light"] as const;
export type Theme = (typeof THEMES)[number];

export const tokenPairSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal("bearer"),
  expires_in: z.number(),
});
export type TokenPair = z.infer<typeof tokenPairSchema>;

export const publicUserSchema = z.object({
  username: z.string(),
  display_name: z.string().nullable(),
  bio: z.string().nullable(),
  location: z.string().nullable(),
  github_username: z.string().nullable(),
  is_verified: z.boolean(),
  created_at: z.number(),
  total_points: z.number(),
  rank: z.number().nullable(),
  challenges_completed: z.number(),
  /** Challenges the user got an environment for (or solved). */
  challenges_attempted: z.number(),
  /** challenges_completed / challenges_attempted as a whole percent; null when nothing was attempted. */
  solve_rate: z.number().nullable(),
  average_time: z.number().nullable(),
  /** floor(total_points / 1000). */
  level: z.number(),
  /** How many users hold a rank: "rank N of M". */
  ranked_users: z.number(),
  achievements: z.array(achievementSchema),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const ownUserSchema = publicUserSchema.extend({
  id: z.string(),
  email: z.string(),
  is_admin: z.boolean(),
  theme: z.enum(THEMES),
  oauth_provider: z.enum(OAUTH_PROVIDERS).nullable(),
  connected_accounts: z.array(z.enum(OAUTH_PROVIDERS)),
  has_password: z.boolean(),
  has_ssh_key: z.boolean(),
  ssh_key_preview: z.string().nullable(),
  ssh_key_fingerprint: z.string().nullable(),
  totp_enabled: z.boolean(),
  notifications: z.record(z.enum(NOTIFICATION_KEYS), z.boolean()),
  /** The plan in force (shared/plans.ts): Pro only while plan_until is ahead, or without an end. */
  plan: z.enum(PLAN_NAMES),
  /** When Pro ends (ISO); null for free, or Pro without an end. */
  plan_until: z.string().nullable(),
});
export type OwnUser = z.infer<typeof ownUserSchema>;

/** The statistics part of a user's view: scores, rank, achievements (read from scoring). */
export const USER_STATISTICS = [
  "total_points",
  "rank",
  "challenges_completed",
  "challenges_attempted",
  "solve_rate",
  "average_time",
  "level",
  "ranked_users",
  "achievements",
] as const satisfies readonly (keyof PublicUser)[];

/**
 * GET /auth/identity: the signed-in account without its statistics, what the web's identity
 * check reads on every page (one read of the user; no scores, rank or achievements). Pages
 * that show the statistics ask for GET /users/me.
 */
export const signedInUserSchema = ownUserSchema.omit(
  Object.fromEntries(USER_STATISTICS.map((k) => [k, true])) as { [K in (typeof USER_STATISTICS)[number]]: true },
);
export type SignedInUser = z.infer<typeof signedInUserSchema>;

/** POST /auth/login, /auth/login/2fa and the OAuth callback: signed in, or a second factor due. */
export const loginResultSchema = z.union([
  tokenPairSchema.extend({ mfa_required: z.literal(false), user: ownUserSchema }),
  z.object({ mfa_required: z.literal(true), mfa_token: z.string(), expires_in: z.number() }),
]);
export type LoginResult = z.infer<typeof loginResultSchema>;

/** The many answers that only confirm what happened. */
export const messageSchema = z.object({ message: z.string() });
export type Message = z.infer<typeof messageSchema>;

/** POST /auth/verify-email. */
export const emailVerifiedSchema = messageSchema.extend({ user: ownUserSchema });
export type EmailVerified = z.infer<typeof emailVerifiedSchema>;

/** GET /auth/oauth/providers. */
export const oauthProvidersSchema = z.object({ github: z.object({ enabled: z.boolean() }), google: z.object({ enabled: z.boolean() }) });
export type OAuthProviders = z.infer<typeof oauthProvidersSchema>;

/** GET /auth/oauth/{provider}/login. */
export const oauthStartSchema = z.object({ state: z.string(), auth_url: z.string() });
export type OAuthStart = z.infer<typeof oauthStartSchema>;

const provider = z.object({ provider: providerParam });

export const accountOperations = defineOperations({
  register: {
    method: "POST",
    path: "/auth/register",
    summary: "Create an account (a verification e-mail is sent)",
    tags: ["Authentication"],
    access: "public",
    body: registerBody,
    status: 201,
    returns: "The new user's own view",
    errors: { 409: "Username or e-mail already taken", 429: "Too many attempts from this address" },
    response: ownUserSchema,
  },
  login: {
    method: "POST",
    path: "/auth/login",
    summary: "Sign in with username or e-mail and password",
    tags: ["Authentication"],
    access: "public",
    body: loginBody,
    returns: "Tokens, or an mfa_token when a second factor is needed",
    errors: { 401: "Wrong username or password", 403: "E-mail not verified or account disabled", 429: "Too many attempts" },
    response: loginResultSchema,
  },
  loginSecondFactor: {
    method: "POST",
    path: "/auth/login/2fa",
    summary: "Finish signing in with a TOTP code or a recovery code",
    tags: ["Authentication"],
    access: "public",
    body: secondFactorBody,
    returns: "Tokens",
    errors: { 401: "Wrong code or expired mfa_token", 429: "Too many attempts" },
    response: loginResultSchema,
  },
  refreshTokens: {
    method: "POST",
    path: "/auth/refresh",
    summary: "Trade a refresh token for new tokens",
    tags: ["Authentication"],
    access: "public",
    body: refreshBody,
    returns: "A new token pair",
    errors: { 401: "Invalid or expired refresh token" },
    response: tokenPairSchema,
  },
  logout: {
    method: "POST",
    path: "/auth/logout",
    summary: "Revoke a refresh token",
    tags: ["Authentication"],
    access: "public",
    body: logoutBody,
    returns: "{message}",
    response: messageSchema,
  },
  validateToken: {
    method: "GET",
    path: "/auth/validate",
    summary: "Check an access token; the signed-in user's own view",
    tags: ["Authentication"],
    access: "user",
    response: ownUserSchema,
  },
  getIdentity: {
    method: "GET",
    path: "/auth/identity",
    summary: "Check an access token; the signed-in account without statistics (one read of the user: the web's check on every page)",
    tags: ["Authentication"],
    access: "user",
    response: signedInUserSchema,
  },
  verifyEmail: {
    method: "POST",
    path: "/auth/verify-email",
    summary: "Verify an e-mail address with the mailed token",
    tags: ["Authentication"],
    access: "public",
    body: tokenBody,
    errors: { 404: "Unknown or used token" },
    response: emailVerifiedSchema,
  },
  resendVerification: {
    method: "POST",
    path: "/auth/resend-verification",
    summary: "Send the verification e-mail again (signed in, or by e-mail address)",
    tags: ["Authentication"],
    access: "optional-user",
    body: resendBody,
    status: 202,
    returns: "{message} (200 when signed in)",
    errors: { 429: "Too many requests" },
    response: messageSchema,
  },
  startOAuth: {
    method: "GET",
    path: "/auth/oauth/:provider/login",
    summary: "Start an OAuth sign-in: the provider's authorization URL",
    tags: ["OAuth"],
    access: "public",
    params: provider,
    errors: { 429: "Too many starts from this address", 503: "This provider is not configured on this server" },
    response: oauthStartSchema,
  },
  finishOAuth: {
    method: "POST",
    path: "/auth/oauth/:provider/callback",
    summary: "Finish an OAuth sign-in with the provider's code and state",
    tags: ["OAuth"],
    access: "public",
    params: provider,
    body: oauthCallbackBody,
    returns: "Tokens",
    errors: { 401: "Authentication failed", 502: "The provider did not answer", 503: "This provider is not configured on this server" },
    response: loginResultSchema,
  },
  listOAuthProviders: {
    method: "GET",
    path: "/auth/oauth/providers",
    summary: "Which OAuth providers are configured",
    tags: ["OAuth"],
    access: "public",
    response: oauthProvidersSchema,
  },
});
