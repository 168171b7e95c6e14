// The JSON API under /api/v1: transport only. Each handler implements one operation of the
// contract (shared/contract/operations.ts), is given its input parsed, and calls one domain
// service; the rules live in server/core.
import type { Accounts } from "#server/core/accounts/index.ts";
import { withRequest } from "#server/core/audit.ts";
import type { Billing } from "#server/core/billing.ts";
import type { Catalogue } from "#server/core/catalogue.ts";
import type { Deployments } from "#server/core/deployments/index.ts";
import type { Grading } from "#server/core/grading.ts";
import type { Health } from "#server/core/health.ts";
import { forbidden, notFound, unauthorized } from "#server/core/errors.ts";
import { isPersonalToken, type PersonalTokens } from "#server/core/auth/personal-tokens.ts";
import type { OAuth } from "#server/core/auth/oauth.ts";
import type { Plans } from "#server/core/plans.ts";
import type { PublicCache } from "#server/core/public-cache.ts";
import type { Scoring } from "#server/core/scoring.ts";
import type { TokenService } from "#server/core/auth/tokens.ts";
import type { Logger } from "#server/logger.ts";
import { accountRoutes, type AccountServices } from "./account-routes.ts";
import { adminRoutes, type AdminRoutesDeps } from "./admin-routes.ts";
import { billingRoutes } from "./billing-routes.ts";
import { debriefRoutes, type DebriefRoutesDeps } from "./debrief-routes.ts";
import { deploymentRoutes } from "./deployment-routes.ts";
import { personalTokenRoutes } from "./personal-token-routes.ts";
import { playerRoutes } from "./player-routes.ts";
import { twoFactorRoutes } from "./twofactor-routes.ts";
import { acceptRequestId, currentRequest, REQUEST_ID_HEADER, type RequestContext, runInRequest } from "#server/http/request-context.ts";
import { buildOpenApi, type OpenApiDocument } from "./openapi.ts";
import { type BaseCtx, createRouter, json } from "./router.ts";
import { operations } from "#shared/contract/operations.ts";
import { personalTokenAdmits, type PersonalTokenScope } from "#shared/contract/operation.ts";
import { PERSONAL_TOKEN_TEXTS } from "#shared/contract/personal-tokens.ts";

export const API_PREFIX = "/api/v1";

/**
 * Runs the API's handling of `request` in a context of its own with the id of the request being
 * served (the HTTP layer's, server/metrics.ts), or, outside one, the request's sane X-Request-Id
 * or a new one; the answer carries the id. Its own context, so a page's loader calling the API
 * in-process does not relabel the page's request; `labelsRequest` (the HTTP layer's /api/v1
 * mount) gives the matched route pattern to the HTTP request for its metrics.
 */
async function inRequest(request: Request, handle: () => Promise<Response>, labelsRequest: boolean): Promise<Response> {
  const parent = currentRequest();
  const ctx: RequestContext = { id: parent?.id ?? acceptRequestId(request.headers.get(REQUEST_ID_HEADER)) };
  const res = await runInRequest(ctx, handle);
  if (labelsRequest && parent) parent.route = ctx.route ?? "unmatched";
  try {
    res.headers.set(REQUEST_ID_HEADER, ctx.id);
  } catch {
    // Immutable headers (a Response.redirect): the HTTP layer sets it anyway.
  }
  return res;
}

export interface ApiDeps {
  accounts: Accounts;
  oauth: OAuth;
  tokens: TokenService;
  /** Personal API tokens (`Authorization: Bearer flt_...`), scoped per operation. */
  personalTokens: PersonalTokens;
  log: Logger;
  catalogue: Catalogue;
  scoring: Scoring;
  /** Anonymous callers' public reads (server/core/public-cache.ts); none: always read fresh. */
  publicCache?: PublicCache;
  deployments: Deployments;
  grading: Grading;
  health: Health;
  plans: Plans;
  billing: Billing;
  /** The admin console's services (server/core/admin), the audit log and the public notice. */
  admin: Omit<AdminRoutesDeps, "userId">;
  /** Costed hints, the debrief and recordings (debrief-routes.ts). */
  debrief?: Omit<DebriefRoutesDeps, "userId" | "adminId">;
  /** Forgot password, e-mail change, deletion, export, unsubscribe (account-routes.ts). */
  account?: AccountServices;
  /** durationSeconds: a function when an admin can change it while the platform runs. */
  settings: { durationSeconds: number | (() => number); gatewayApiKey?: string };
}

export function createApi({
  accounts,
  oauth,
  tokens,
  personalTokens,
  log,
  deployments,
  grading,
  settings,
  catalogue,
  scoring,
  publicCache,
  health,
  plans,
  billing,
  admin,
  debrief,
  account,
}: ApiDeps) {
  /** The bearer credential of the request, if any. */
  const bearerOf = (c: BaseCtx): string | null => /^Bearer\s+(.+)$/i.exec(c.request.headers.get("authorization") ?? "")?.[1]!.trim() ?? null;

  /** Who `Authorization: Bearer <token>` speaks for, or 401: a sign-in's access token (scope
   *  null: anything its user may do) or a personal API token (its scope); verified once per
   *  request (the access guard and the handler ask the same). */
  const verified = new WeakMap<BaseCtx, Promise<{ userId: string; scope: PersonalTokenScope | null; tokenId?: string }>>();
  function caller(c: BaseCtx): Promise<{ userId: string; scope: PersonalTokenScope | null; tokenId?: string }> {
    let who = verified.get(c);
    if (!who) {
      const token = bearerOf(c);
      who = !token
        ? Promise.reject(unauthorized())
        : isPersonalToken(token)
          ? personalTokens.verify(token)
          : tokens.verifyAccess(token).then((userId) => ({ userId, scope: null }));
      who.catch(() => {});
      verified.set(c, who);
    }
    return who;
  }
  const userId = async (c: BaseCtx): Promise<string> => (await caller(c)).userId;
  /** The personal token the request is made with (its id), or 404 for a sign-in's token. */
  const personalTokenId = async (c: BaseCtx): Promise<string> => {
    const { tokenId } = await caller(c);
    if (!tokenId) throw notFound(PERSONAL_TOKEN_TEXTS.notPersonal);
    return tokenId;
  };

  // Who may call what is enforced here, from each operation's declared access, before anything
  // of the request is read: "user" needs a valid access token, "admin" an admin's. ("optional-user"
  // and "service" operations decide with what they are given: a signed-in caller gets more, a
  // service shows its key.) A personal API token is the one place its scope is enforced: whatever
  // the operation's access, it must declare a scope the token has (personalTokenAdmits), else 403;
  // an invalid, revoked or expired one is a 401 even where no credential is needed.
  const r = createRouter(log, async (op, c) => {
    const token = bearerOf(c);
    if (token && isPersonalToken(token)) {
      const { scope } = await caller(c);
      if (!scope || !personalTokenAdmits(scope, op)) throw forbidden(PERSONAL_TOKEN_TEXTS.scope);
    }
    if (op.access === "user") await userId(c);
    else if (op.access === "admin") await admin.admin.actor(await userId(c));
  });

  /** As userId, with the sign-in the token belongs to (step-up rules ask it, decision 017). */
  async function session(c: BaseCtx): Promise<{ userId: string; sid: string | null }> {
    const m = /^Bearer\s+(.+)$/i.exec(c.request.headers.get("authorization") ?? "");
    if (!m) throw unauthorized();
    return tokens.verifySession(m[1]!.trim());
  }

  // Live health of each part (server/core/health.ts): public, status words and counts only.
  r.handle(operations.getHealth, async () => health.check());

  // Authentication
  r.handle(operations.register, async (c) => accounts.register(c.body, c.info.clientIp));
  r.handle(operations.login, async (c) => accounts.login(c.body, c.info.clientIp));
  r.handle(operations.loginSecondFactor, async (c) => accounts.loginSecondFactor(c.body, c.info.clientIp));
  r.handle(operations.refreshTokens, async (c) => accounts.refresh(c.body.refresh_token));
  r.handle(operations.logout, async (c) => {
    await accounts.logout(c.body.refresh_token);
    return { message: "Logged out" };
  });
  r.handle(operations.validateToken, async (c) => accounts.me(await userId(c)));
  r.handle(operations.getIdentity, async (c) => accounts.identity(await userId(c)));
  r.handle(operations.verifyEmail, async (c) => accounts.verifyEmail(c.body.token));
  r.handle(operations.resendVerification, async (c) => {
    const { email } = c.body;
    if (c.request.headers.has("authorization")) return c.reply(await accounts.resendVerification({ userId: await userId(c) }), { status: 200 });
    if (!email) return json({ detail: "email: is required" }, 400);
    return accounts.resendVerification({ email });
  });

  // OAuth
  r.handle(operations.startOAuth, async (c) => oauth.start(c.params.provider, c.info.clientIp));
  r.handle(operations.finishOAuth, async (c) => oauth.callback(c.params.provider, c.body));
  r.handle(operations.listOAuthProviders, async () => ({
    github: { enabled: oauth.isConfigured("github") },
    google: { enabled: oauth.isConfigured("google") },
  }));

  // Two-factor: set-up, recovery codes, off, the lost-authenticator link (twofactor-routes.ts).
  twoFactorRoutes(r, { accounts, session });

  // Users: own settings first, so "me" is never taken for a username.
  r.handle(operations.getMe, async (c) => accounts.me(await userId(c)));
  r.handle(operations.updateProfile, async (c) => accounts.updateProfile(await userId(c), c.body));
  r.handle(operations.changePassword, async (c) => accounts.changePassword(await userId(c), c.body));
  r.handle(operations.updateNotifications, async (c) => accounts.updateNotifications(await userId(c), c.body));
  r.handle(operations.getSshKey, async (c) => accounts.getSshKey(await userId(c)));
  r.handle(operations.getSshKeyNonce, async (c) => accounts.sshKeyNonce(await userId(c)));
  r.handle(operations.setSshKey, async (c) => {
    const { userId: id, sid } = await session(c);
    const { ssh_public_key_b64, ...rest } = c.body;
    return accounts.setSshKey(id, { key: ssh_public_key_b64, ...rest, session: sid });
  });
  r.handle(operations.deleteSshKey, async (c) => {
    const { userId: id, sid } = await session(c);
    return accounts.deleteSshKey(id, { ...c.body, session: sid });
  });
  r.handle(operations.getPublicProfile, async (c) => accounts.publicProfile(c.params.username));

  // Personal API tokens: list, make, revoke (a sign-in's token only); the current one (a personal token only).
  personalTokenRoutes(r, { personalTokens, userId, personalTokenId });

  // The admin console (admins only, 403 otherwise) and the public maintenance notice.
  adminRoutes(r, { ...admin, userId });

  // Plans and payments (the webhook reads its body raw).
  billingRoutes(r, { plans, billing, userId });

  // Deployments and grading (before the catalogue's /challenges/:id: "active-session" is no id).
  deploymentRoutes(r, { deployments, grading, ...settings, userId });

  // The account basics and a deployment's reset (server/api/account-routes.ts).
  if (account) accountRoutes(r, { ...account, deployments, userId, session });

  // Hints, the debrief after solving, recordings (server/api/debrief-routes.ts).
  if (debrief) debriefRoutes(r, { ...debrief, userId, adminId: async (c) => (await admin.admin.actor(await userId(c))).id });

  // The player's reads (catalogue, leaderboard, profiles' solves, home figures): last, so every
  // more specific /challenges/... route above wins over /challenges/:id.
  playerRoutes(r, { catalogue, scoring, cache: publicCache, userId });

  // This API described (server/api/openapi.ts), built once from the table above on first read:
  // after every route is registered.
  let described: OpenApiDocument | null = null;
  const openapi = () => (described ??= buildOpenApi(r.routes(), API_PREFIX));
  r.handle(operations.getOpenApi, async (c) =>
    c.reply(openapi() as unknown as Record<string, unknown>, { headers: { "cache-control": "public, max-age=300" } }),
  );

  return {
    // The caller's address is known to the audit log for the whole request (server/core/audit.ts);
    // a request the HTTP layer did not start (the web's in-process client) gets its id here.
    handle: (request: Request, info: { clientIp: string }, opts: { labelsRequest?: boolean } = {}) =>
      inRequest(request, () => withRequest(info, () => r.serve(request, info, API_PREFIX)), opts.labelsRequest ?? false),
    /** Every registered route with its operation (the OpenAPI check iterates it). */
    routes: r.routes,
    openapi,
  };
}
export type Api = ReturnType<typeof createApi>;
