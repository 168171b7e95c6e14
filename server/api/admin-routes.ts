// The admin console's API under /api/v1/admin/...: transport only. Every route first checks that
// the caller is signed in (401) and an admin (403, the same answer for every admin route, so
// which routes exist is no secret worth hiding but nothing is done for a non-admin), validates
// its input with zod, and calls one service of server/core/admin. Plus one public read,
// /system/notice, for the global banner (maintenance mode).
import { z } from "zod";
import { AUDIT_ACTIONS, type Audit, type AuditFilter } from "../core/audit.ts";
import type { Admin } from "../core/admin/index.ts";
import { SETTING_LIMITS } from "../core/admin/settings.ts";
import type { Actor } from "../core/admin/users.ts";
import { badRequest } from "../core/errors.ts";
import { type BaseCtx, parse, type Router } from "./router.ts";
import { blank, challengeIdParam, queryText, registerBody, wholeNumber } from "../../shared/contract/inputs.ts";

export interface AdminRoutesDeps {
  admin: Admin;
  audit: Audit;
  /** Public state for the global banner. */
  notice(): { maintenance: boolean; message: string | null };
  userId(c: BaseCtx): Promise<string>;
}

// Query strings: an empty value (a GET form's blank field) means "not given".
const page = wholeNumber(1, 1_000_000);
const limit = wholeNumber(1, 200);

/** A day (YYYY-MM-DD, UTC) or epoch seconds; `end` takes a day's last second. */
const when = (end: boolean) =>
  z.preprocess(
    blank,
    z
      .string()
      .trim()
      .refine(
        (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) : /^\d{1,12}$/.test(v)),
        "must be a date (YYYY-MM-DD) or epoch seconds",
      )
      .transform((v) => (/^\d{1,12}$/.test(v) ? Number(v) : Date.parse(`${v}T00:00:00Z`) / 1000 + (end ? 86_399 : 0)))
      .optional(),
  );

const userIdParam = z.string().regex(/^[0-9a-f-]{36}$/, "is not a user id");

export const auditQuery = z.object({
  action: z.preprocess(blank, z.enum(AUDIT_ACTIONS, { error: `must be one of ${AUDIT_ACTIONS.join(", ")}` }).optional()),
  /** A username: the entries that account made (matched by its id). */
  actor: queryText(100),
  /** A user id: the entries that account made or that are about it. */
  user: z.preprocess(blank, z.string().trim().pipe(userIdParam).optional()),
  from: when(false),
  to: when(true),
  page,
  limit,
});

export const usersQuery = z.object({ search: queryText(100), page, limit });

export const adminFlagBody = z.object({ is_admin: z.boolean({ error: "must be true or false" }) });
export const visibilityBody = z.object({ hidden: z.boolean({ error: "must be true or false" }) });
/** As PUT /admin/users/:id/plan takes it (billing-routes.ts): plan_until in ISO 8601, or none. */
export const planBody = z
  .object({
    plan: z.enum(["free", "pro"], { error: "must be free or pro" }),
    plan_until: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date and time" }).nullable().optional(),
  })
  .transform(({ plan, plan_until }) => ({ plan, until: plan_until ? Math.floor(Date.parse(plan_until) / 1000) : null }));

export const settingsBody = z
  .object({
    session_timeout_minutes: z
      .number({ error: "must be a number of minutes" })
      .int("must be a whole number")
      .min(SETTING_LIMITS.sessionTimeoutMin, `must be at least ${SETTING_LIMITS.sessionTimeoutMin}`)
      .optional(),
    max_concurrent_deployments: z
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(SETTING_LIMITS.maxConcurrentMin, `must be at least ${SETTING_LIMITS.maxConcurrentMin}`)
      .max(SETTING_LIMITS.maxConcurrentMax, `must be at most ${SETTING_LIMITS.maxConcurrentMax}`)
      .optional(),
    maintenance_mode: z.boolean({ error: "must be true or false" }).optional(),
  })
  .strict();

export function adminRoutes(r: Router, { admin, audit, notice, userId }: AdminRoutesDeps) {
  /** The signed-in admin, or 401 (not signed in) / 403 (not an admin). */
  const adminActor = async (c: BaseCtx): Promise<Actor> => admin.actor(await userId(c));
  const user = (c: { params: Record<string, string> }) => parse(userIdParam, c.params.id);
  const challenge = (c: { params: Record<string, string> }) => parse(challengeIdParam, c.params.id);
  const auditFilter = (q: z.output<typeof auditQuery>): AuditFilter => ({ action: q.action, actor: q.actor, user: q.user, from: q.from, to: q.to });

  r.get("/system/notice", { summary: "The public notice for the global banner (maintenance mode)", tags: ["System"], access: "public" }, async () => notice());

  // Users
  r.get("/admin/users", { summary: "List and search users", tags: ["Admin"], access: "admin", query: usersQuery }, async (c) => {
    await adminActor(c);
    return { ...(await admin.users.list(c.query(usersQuery))), plans_enabled: admin.users.plansEnabled };
  });
  r.post(
    "/admin/users",
    {
      summary: "Create a user (a verification e-mail is sent)",
      tags: ["Admin"],
      access: "admin",
      body: registerBody,
      status: 201,
      errors: { 409: "Username or e-mail already taken" },
    },
    async (c) => {
      const actor = await adminActor(c);
      return Response.json(await admin.users.create(actor, await c.body(registerBody)), { status: 201, headers: { "cache-control": "no-store" } });
    },
  );
  r.post(
    "/admin/users/:id/verify",
    { summary: "Mark a user's e-mail as verified", tags: ["Admin"], access: "admin", params: { id: userIdParam }, errors: { 404: "No such user" } },
    async (c) => admin.users.verify(await adminActor(c), user(c)),
  );
  r.put(
    "/admin/users/:id/admin",
    {
      summary: "Make or revoke an admin",
      tags: ["Admin"],
      access: "admin",
      params: { id: userIdParam },
      body: adminFlagBody,
      errors: { 404: "No such user", 409: "An admin cannot revoke themselves" },
    },
    async (c) => {
      const actor = await adminActor(c);
      return admin.users.setAdmin(actor, user(c), (await c.body(adminFlagBody)).is_admin);
    },
  );
  // POST: the console's way, audited (PUT on the same path is the plans API's, billing-routes.ts).
  r.post(
    "/admin/users/:id/plan",
    { summary: "Set a user's plan (audited)", tags: ["Admin"], access: "admin", params: { id: userIdParam }, body: planBody, errors: { 404: "No such user" } },
    async (c) => {
      const actor = await adminActor(c);
      const { plan, until } = await c.body(planBody);
      return admin.users.setPlan(actor, user(c), plan, until);
    },
  );
  r.post(
    "/admin/users/:id/disable",
    {
      summary: "Disable a user: sign-ins refused, tokens revoked, deployments ended",
      tags: ["Admin"],
      access: "admin",
      params: { id: userIdParam },
      errors: { 404: "No such user", 409: "An admin cannot disable themselves" },
    },
    async (c) => admin.users.disable(await adminActor(c), user(c)),
  );
  r.post(
    "/admin/users/:id/2fa/reset",
    {
      summary: "Turn a user's two-factor authentication off (lost authenticator and recovery codes); the user is mailed, the reset audited",
      tags: ["Admin"],
      access: "admin",
      params: { id: userIdParam },
      errors: { 404: "No such user", 409: "Two-factor is not enabled for this user" },
    },
    async (c) => admin.users.resetTwoFactor(await adminActor(c), user(c)),
  );
  r.post(
    "/admin/users/:id/enable",
    { summary: "Enable a disabled user", tags: ["Admin"], access: "admin", params: { id: userIdParam }, errors: { 404: "No such user" } },
    async (c) => admin.users.enable(await adminActor(c), user(c)),
  );

  // Challenges
  r.get("/admin/challenges", { summary: "Every challenge with its figures", tags: ["Admin"], access: "admin" }, async (c) => {
    await adminActor(c);
    return { challenges: await admin.challenges.figures() };
  });
  // Before /admin/challenges/:id/...: "reload" is no challenge id.
  r.post("/admin/challenges/reload", { summary: "Reload the challenge library from disk", tags: ["Admin"], access: "admin" }, async (c) =>
    admin.challenges.reload(await adminActor(c)),
  );
  r.put(
    "/admin/challenges/:id/visibility",
    {
      summary: "Hide or show a challenge",
      tags: ["Admin"],
      access: "admin",
      params: { id: challengeIdParam },
      body: visibilityBody,
      errors: { 404: "No such challenge" },
    },
    async (c) => {
      const actor = await adminActor(c);
      return admin.challenges.setHidden(actor, challenge(c), (await c.body(visibilityBody)).hidden);
    },
  );

  // System
  r.get("/admin/system", { summary: "Host and platform measurements", tags: ["Admin"], access: "admin" }, async (c) => {
    await adminActor(c);
    return admin.system.measure();
  });
  r.get("/admin/settings", { summary: "The settings an admin can change, with their limits", tags: ["Admin"], access: "admin" }, async (c) => {
    await adminActor(c);
    return { ...admin.settings.current(), limits: { ...SETTING_LIMITS, sessionTimeoutMax: admin.settings.maxTimeoutMinutes } };
  });
  r.put(
    "/admin/settings",
    { summary: "Change the deployment duration, platform-wide cap or maintenance mode", tags: ["Admin"], access: "admin", body: settingsBody },
    async (c) => {
      const actor = await adminActor(c);
      const body = await c.body(settingsBody);
      if (body.session_timeout_minutes !== undefined && body.session_timeout_minutes > admin.settings.maxTimeoutMinutes) {
        throw badRequest(`session_timeout_minutes: must be at most ${admin.settings.maxTimeoutMinutes} (the longest a deployment may live)`);
      }
      return admin.settings.update(actor, body);
    },
  );

  // Logs
  r.get("/admin/audit", { summary: "The audit log, filtered and paged", tags: ["Admin"], access: "admin", query: auditQuery }, async (c) => {
    await adminActor(c);
    const q = c.query(auditQuery);
    return { ...(await audit.list({ ...auditFilter(q), page: q.page, limit: q.limit })), actions: AUDIT_ACTIONS };
  });
  r.get(
    "/admin/audit/export",
    {
      summary: "The filtered audit log as JSON lines",
      tags: ["Admin"],
      access: "admin",
      query: auditQuery,
      contentType: "application/x-ndjson",
      returns: "One JSON object per line",
    },
    async (c) => {
      await adminActor(c);
      const q = c.query(auditQuery);
      return new Response(audit.exportLines(auditFilter(q)), {
        headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
      });
    },
  );
}
