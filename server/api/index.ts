// The JSON API under /api/v1: transport only. Each handler validates its input and calls one
// domain service; the rules live in server/core.
import type { Accounts } from "../core/accounts/index.ts";
import { withRequest } from "../core/audit.ts";
import type { Billing } from "../core/billing.ts";
import type { Catalogue } from "../core/catalogue.ts";
import type { Deployments } from "../core/deployments/index.ts";
import type { Grading } from "../core/grading.ts";
import type { Health } from "../core/health.ts";
import { unauthorized } from "../core/errors.ts";
import type { OAuth } from "../core/oauth.ts";
import type { Plans } from "../core/plans.ts";
import type { Scoring } from "../core/scoring.ts";
import type { TokenService } from "../core/tokens.ts";
import type { Logger } from "../logger.ts";
import { adminRoutes, type AdminRoutesDeps } from "./admin-routes.ts";
import { billingRoutes } from "./billing-routes.ts";
import { deploymentRoutes } from "./deployment-routes.ts";
import { playerRoutes } from "./player-routes.ts";
import { type Ctx, createRouter, json, parse } from "./router.ts";
import * as s from "./schemas.ts";

export const API_PREFIX = "/api/v1";

export interface ApiDeps {
  accounts: Accounts;
  oauth: OAuth;
  tokens: TokenService;
  log: Logger;
  catalogue: Catalogue;
  scoring: Scoring;
  deployments: Deployments;
  grading: Grading;
  health: Health;
  plans: Plans;
  billing: Billing;
  /** The admin console's services (server/core/admin), the audit log and the public notice. */
  admin: Omit<AdminRoutesDeps, "userId">;
  /** durationSeconds: a function when an admin can change it while the platform runs. */
  settings: { durationSeconds: number | (() => number); gatewayApiKey?: string };
}

export function createApi({ accounts, oauth, tokens, log, deployments, grading, settings, catalogue, scoring, health, plans, billing, admin }: ApiDeps) {
  const r = createRouter(log);

  /** The signed-in user's id from `Authorization: Bearer <access token>`, or 401. */
  async function userId(c: Ctx): Promise<string> {
    const header = c.request.headers.get("authorization") ?? "";
    const m = /^Bearer\s+(.+)$/i.exec(header);
    if (!m) throw unauthorized();
    return tokens.verifyAccess(m[1]!.trim());
  }

  // Live health of each part (server/core/health.ts): public, status words and counts only.
  r.get("/health", async () => health.check());

  // Authentication
  r.post("/auth/register", async (c) => json(await accounts.register(await c.body(s.registerBody), c.info.clientIp), 201));
  r.post("/auth/login", async (c) => accounts.login(await c.body(s.loginBody), c.info.clientIp));
  r.post("/auth/login/2fa", async (c) => accounts.loginSecondFactor(await c.body(s.secondFactorBody), c.info.clientIp));
  r.post("/auth/refresh", async (c) => accounts.refresh((await c.body(s.refreshBody)).refresh_token));
  r.post("/auth/logout", async (c) => {
    await accounts.logout((await c.body(s.logoutBody)).refresh_token);
    return { message: "Logged out" };
  });
  r.get("/auth/validate", async (c) => accounts.me(await userId(c)));
  r.post("/auth/verify-email", async (c) => accounts.verifyEmail((await c.body(s.tokenBody)).token));
  r.post("/auth/resend-verification", async (c) => {
    const { email } = await c.body(s.resendBody);
    if (c.request.headers.has("authorization")) return accounts.resendVerification({ userId: await userId(c) });
    if (!email) return json({ detail: "email: is required" }, 400);
    return json(await accounts.resendVerification({ email }), 202);
  });

  // OAuth
  r.get("/auth/oauth/:provider/login", async (c) => oauth.start(parse(s.providerParam, c.params.provider), c.info.clientIp));
  r.post("/auth/oauth/:provider/callback", async (c) =>
    oauth.callback(parse(s.providerParam, c.params.provider), await c.body(s.oauthCallbackBody)),
  );
  r.get("/auth/oauth/providers", async () => ({
    github: { enabled: oauth.isConfigured("github") },
    google: { enabled: oauth.isConfigured("google") },
  }));

  // Two-factor
  r.post("/auth/2fa/setup", async (c) => accounts.setupTotp(await userId(c)));
  r.post("/auth/2fa/verify", async (c) => accounts.enableTotp(await userId(c), await c.body(s.totpVerifyBody)));
  r.post("/auth/2fa/disable", async (c) => accounts.disableTotp(await userId(c), await c.body(s.totpDisableBody)));

  // Users: own settings first, so "me" is never taken for a username.
  r.get("/users/me", async (c) => accounts.me(await userId(c)));
  r.patch("/users/me", async (c) => accounts.updateProfile(await userId(c), await c.body(s.profileBody)));
  r.put("/users/me/password", async (c) => accounts.changePassword(await userId(c), await c.body(s.passwordChangeBody)));
  r.put("/users/me/notifications", async (c) =>
    accounts.updateNotifications(await userId(c), await c.body(s.notificationsBody)),
  );
  r.get("/users/me/ssh-key", async (c) => accounts.getSshKey(await userId(c)));
  r.post("/users/me/ssh-key/nonce", async (c) => accounts.sshKeyNonce(await userId(c)));
  r.put("/users/me/ssh-key", async (c) => {
    const id = await userId(c);
    const { ssh_public_key_b64, ...rest } = await c.body(s.sshKeyBody);
    return accounts.setSshKey(id, { key: ssh_public_key_b64, ...rest });
  });
  r.delete("/users/me/ssh-key", async (c) => {
    const id = await userId(c);
    return accounts.deleteSshKey(id, await c.body(s.sshKeyDeleteBody));
  });
  r.get("/users/:username", async (c) => accounts.publicProfile(c.params.username!));

  // The admin console (admins only, 403 otherwise) and the public maintenance notice.
  adminRoutes(r, { ...admin, userId });

  // Plans and payments (the webhook reads its body raw).
  billingRoutes(r, { plans, billing, userId });

  // Deployments and grading (before the catalogue's /challenges/:id: "active-session" is no id).
  deploymentRoutes(r, { deployments, grading, ...settings, userId });

  // The player's reads (catalogue, leaderboard, profiles' solves, home figures): last, so every
  // more specific /challenges/... route above wins over /challenges/:id.
  playerRoutes(r, { catalogue, scoring });

  // The caller's address is known to the audit log for the whole request (server/core/audit.ts).
  return { handle: (request: Request, info: { clientIp: string }) => withRequest(info, () => r.handle(request, info, API_PREFIX)) };
}
export type Api = ReturnType<typeof createApi>;
