// The admin console's operations (/api/v1/admin/...) and the public notice: what each takes (the
// query and body schemas) and answers (the shapes in admin.ts).
import { z } from "zod";
import {
  AUDIT_ACTIONS,
  auditPageSchema,
  adminUsersPageSchema,
  adminUserViewSchema,
  challengeFiguresSchema,
  reloadReportSchema,
  SETTING_LIMITS,
  systemFiguresSchema,
  systemNoticeSchema,
  systemSettingsSchema,
  systemSettingsWithLimitsSchema,
} from "./admin.ts";
import { blank, challengeIdParam, queryText, registerBody, wholeNumber } from "./inputs.ts";
import { defineOperations } from "./operation.ts";

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
/** plan_until in ISO 8601, or none. */
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

const tags = ["Admin"] as const;
const user = z.object({ id: userIdParam });
const noSuchUser = { 404: "No such user" };

export const adminOperations = defineOperations({
  getSystemNotice: {
    method: "GET",
    path: "/system/notice",
    summary: "The public notice for the global banner (maintenance mode)",
    tags: ["System"],
    access: "public",
    personalToken: "read",
    response: systemNoticeSchema,
  },
  adminListUsers: {
    method: "GET",
    path: "/admin/users",
    summary: "List and search users",
    tags,
    access: "admin",
    query: usersQuery,
    response: adminUsersPageSchema,
  },
  adminCreateUser: {
    method: "POST",
    path: "/admin/users",
    summary: "Create a user (a verification e-mail is sent)",
    tags,
    access: "admin",
    body: registerBody,
    status: 201,
    errors: { 409: "Username or e-mail already taken" },
    response: adminUserViewSchema,
  },
  adminVerifyUser: {
    method: "POST",
    path: "/admin/users/:id/verify",
    summary: "Mark a user's e-mail as verified",
    tags,
    access: "admin",
    params: user,
    errors: noSuchUser,
    response: adminUserViewSchema,
  },
  adminSetAdmin: {
    method: "PUT",
    path: "/admin/users/:id/admin",
    summary: "Make or revoke an admin",
    tags,
    access: "admin",
    params: user,
    body: adminFlagBody,
    errors: { 404: "No such user", 409: "An admin cannot revoke themselves" },
    response: adminUserViewSchema,
  },
  adminSetPlan: {
    method: "POST",
    path: "/admin/users/:id/plan",
    summary: "Set a user's plan (audited)",
    tags,
    access: "admin",
    params: user,
    body: planBody,
    errors: noSuchUser,
    response: adminUserViewSchema,
  },
  adminDisableUser: {
    method: "POST",
    path: "/admin/users/:id/disable",
    summary: "Disable a user: sign-ins refused, tokens revoked, deployments ended",
    tags,
    access: "admin",
    params: user,
    errors: { 404: "No such user", 409: "An admin cannot disable themselves" },
    response: adminUserViewSchema,
  },
  adminResetTwoFactor: {
    method: "POST",
    path: "/admin/users/:id/2fa/reset",
    summary: "Turn a user's two-factor authentication off (lost authenticator and recovery codes); the user is mailed, the reset audited",
    tags,
    access: "admin",
    params: user,
    errors: { 404: "No such user", 409: "Two-factor is not enabled for this user" },
    response: adminUserViewSchema,
  },
  adminEnableUser: {
    method: "POST",
    path: "/admin/users/:id/enable",
    summary: "Enable a disabled user",
    tags,
    access: "admin",
    params: user,
    errors: noSuchUser,
    response: adminUserViewSchema,
  },
  adminListChallenges: {
    method: "GET",
    path: "/admin/challenges",
    summary: "Every challenge with its figures",
    tags,
    access: "admin",
    response: z.object({ challenges: z.array(challengeFiguresSchema) }),
  },
  adminReloadChallenges: {
    method: "POST",
    path: "/admin/challenges/reload",
    summary: "Reload the challenge library from disk",
    tags,
    access: "admin",
    response: reloadReportSchema,
  },
  adminSetChallengeVisibility: {
    method: "PUT",
    path: "/admin/challenges/:id/visibility",
    summary: "Hide or show a challenge",
    tags,
    access: "admin",
    params: z.object({ id: challengeIdParam }),
    body: visibilityBody,
    errors: { 404: "No such challenge" },
    response: z.object({ id: z.string(), hidden: z.boolean() }),
  },
  adminGetSystem: { method: "GET", path: "/admin/system", summary: "Host and platform measurements", tags, access: "admin", response: systemFiguresSchema },
  adminGetSettings: {
    method: "GET",
    path: "/admin/settings",
    summary: "The settings an admin can change, with their limits",
    tags,
    access: "admin",
    response: systemSettingsWithLimitsSchema,
  },
  adminUpdateSettings: {
    method: "PUT",
    path: "/admin/settings",
    summary: "Change the deployment duration, platform-wide cap or maintenance mode",
    tags,
    access: "admin",
    body: settingsBody,
    response: systemSettingsSchema,
  },
  adminListAudit: {
    method: "GET",
    path: "/admin/audit",
    summary: "The audit log, filtered and paged",
    tags,
    access: "admin",
    query: auditQuery,
    response: auditPageSchema,
  },
  adminExportAudit: {
    method: "GET",
    path: "/admin/audit/export",
    summary: "The filtered audit log as JSON lines",
    tags,
    access: "admin",
    query: auditQuery,
    contentType: "application/x-ndjson",
    returns: "One JSON object per line",
    response: z.string(),
  },
});
