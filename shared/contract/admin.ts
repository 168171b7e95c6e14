// The admin console's API shapes (/api/v1/admin/..., /api/v1/system/notice): what the server's
// admin services return and the web's admin pages read. A leaf: imports only zod.
import { z } from "zod";

/** Every action the audit log knows (filters offer this list). */
export const AUDIT_ACTIONS = [
  "auth.login",
  "auth.login_failed",
  "auth.2fa_enabled",
  "auth.2fa_disabled",
  "auth.2fa_recovery_codes",
  "auth.2fa_recovery_code_used",
  "auth.2fa_removal_requested",
  "auth.2fa_removal_cancelled",
  "auth.password_reset",
  "account.email_change_requested",
  "account.email_changed",
  "account.deleted",
  "account.exported",
  "api_token.created",
  "api_token.revoked",
  "ssh_key.set",
  "ssh_key.deleted",
  "deployment.start",
  "deployment.terminate",
  "deployment.expire",
  "deployment.reset",
  "submission",
  "admin.user_create",
  "admin.user_verify",
  "admin.user_admin",
  "admin.user_plan",
  "admin.user_disable",
  "admin.user_enable",
  "admin.user_2fa_reset",
  "admin.challenge_hide",
  "admin.challenge_show",
  "admin.content_reload",
  "admin.settings",
  "admin.recording_view",
  "recording.publish",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an audit entry can be about (its target's type; the id says which one). */
export const AUDIT_TARGET_TYPES = ["user", "challenge", "recording"] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const auditEntrySchema = z.object({
  id: z.string(),
  /** Epoch seconds. */
  at: z.number(),
  actor_id: z.string().nullable(),
  /** The acting account's username, read by its id; null for the platform itself, a sign-in that
   *  named no account, or an account deleted since. */
  actor: z.string().nullable(),
  action: z.string(),
  target_type: z.enum(AUDIT_TARGET_TYPES).nullable(),
  target_id: z.string().nullable(),
  /** How the target reads: a user's username (by id; null once deleted), else the id. */
  target: z.string().nullable(),
  ip: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  total: z.number(),
  page: z.number(),
  pages: z.number(),
  actions: z.array(z.string()).readonly(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const adminUserViewSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  is_admin: z.boolean(),
  is_verified: z.boolean(),
  disabled: z.boolean(),
  /** Two-factor authentication on: the console offers to reset it. */
  totp_enabled: z.boolean(),
  oauth_provider: z.enum(["github", "google"]).nullable(),
  plan: z.enum(["free", "pro"]),
  /** When Pro ends (epoch seconds); null: no end. */
  plan_until: z.number().nullable(),
  created_at: z.number(),
  active_deployments: z.number(),
});
export type AdminUserView = z.infer<typeof adminUserViewSchema>;

export const adminUsersPageSchema = z.object({
  users: z.array(adminUserViewSchema),
  total: z.number(),
  page: z.number(),
  pages: z.number(),
  /** Whether plans can be set on this installation. */
  plans_enabled: z.boolean().optional(),
});
export type AdminUsersPage = z.infer<typeof adminUsersPageSchema>;

export const challengeFiguresSchema = z.object({
  id: z.string(),
  title: z.string(),
  difficulty: z.string(),
  category: z.string(),
  points: z.number(),
  /** false: its folder is gone from CHALLENGES_DIR (kept for its solves, not offered). */
  in_library: z.boolean(),
  hidden: z.boolean(),
  /** Deployments ever started. */
  starts: z.number(),
  /** Different users who started it. */
  starters: z.number(),
  /** Users who solved it. */
  solves: z.number(),
  /** solves / starters as a percent (one decimal); null when nobody started it. */
  success_rate: z.number().nullable(),
  /** Median solve time in seconds; null without solves. */
  median_solve_seconds: z.number().nullable(),
});
export type ChallengeFigures = z.infer<typeof challengeFiguresSchema>;

export const reloadReportSchema = z.object({
  loaded: z.array(z.string()),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  /** One message per folder that did not load (file and field named). */
  problems: z.array(z.string()),
});
export type ReloadReport = z.infer<typeof reloadReportSchema>;

const used = z.object({ percent: z.number(), used_bytes: z.number(), total_bytes: z.number() });
export const systemFiguresSchema = z.object({
  cpu: z.object({ percent: z.number(), cores: z.number(), load: z.tuple([z.number(), z.number(), z.number()]) }),
  memory: used,
  storage: used.extend({ path: z.string() }),
  /** Accounts with a sign-in or token refresh in the last 15 minutes. */
  activeUsers: z.number(),
  /** Deployments running now. */
  activeSessions: z.number(),
  measured_at: z.number(),
});
export type SystemFigures = z.infer<typeof systemFiguresSchema>;

export const systemSettingsSchema = z.object({
  session_timeout_minutes: z.number(),
  max_concurrent_deployments: z.number(),
  maintenance_mode: z.boolean(),
});
export type SystemSettings = z.infer<typeof systemSettingsSchema>;

export const systemSettingsWithLimitsSchema = systemSettingsSchema.extend({
  limits: z.object({ sessionTimeoutMin: z.number(), sessionTimeoutMax: z.number(), maxConcurrentMin: z.number(), maxConcurrentMax: z.number() }),
});
export type SystemSettingsWithLimits = z.infer<typeof systemSettingsWithLimitsSchema>;

/** Public: what the global banner shows. */
export const systemNoticeSchema = z.object({ maintenance: z.boolean(), message: z.string().nullable() });
export type SystemNotice = z.infer<typeof systemNoticeSchema>;

/** The bounds of what an admin may set (the settings form and PUT /admin/settings say them). */
export const SETTING_LIMITS = {
  /** Minutes; at most the longest a deployment may live (MAX_DEPLOYMENT_MINUTES). */
  sessionTimeoutMin: 5,
  maxConcurrentMin: 1,
  maxConcurrentMax: 10_000,
} as const;
