// The admin console's API shapes (/api/v1/admin/..., /api/v1/system/notice): what the server's
// admin services return and the web's admin pages read. A leaf: imports nothing.

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

export interface AuditEntry {
  id: string;
  /** Epoch seconds. */
  at: number;
  actor_id: string | null;
  /** The acting account's username, read by its id; null for the platform itself, a sign-in that
   *  named no account, or an account deleted since. */
  actor: string | null;
  action: string;
  target_type: AuditTargetType | null;
  target_id: string | null;
  /** How the target reads: a user's username (by id; null once deleted), else the id. */
  target: string | null;
  ip: string | null;
  detail: Record<string, unknown> | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
  page: number;
  pages: number;
  actions: readonly string[];
}

export interface AdminUserView {
  id: string;
  username: string;
  email: string;
  is_admin: boolean;
  is_verified: boolean;
  disabled: boolean;
  /** Two-factor authentication on: the console offers to reset it. */
  totp_enabled: boolean;
  oauth_provider: "github" | "google" | null;
  plan: "free" | "pro";
  /** When Pro ends (epoch seconds); null: no end. */
  plan_until: number | null;
  created_at: number;
  active_deployments: number;
}

export interface AdminUsersPage {
  users: AdminUserView[];
  total: number;
  page: number;
  pages: number;
  /** Whether plans can be set on this installation. */
  plans_enabled?: boolean;
}

export interface ChallengeFigures {
  id: string;
  title: string;
  difficulty: string;
  category: string;
  points: number;
  /** false: its folder is gone from CHALLENGES_DIR (kept for its solves, not offered). */
  in_library: boolean;
  hidden: boolean;
  /** Deployments ever started. */
  starts: number;
  /** Different users who started it. */
  starters: number;
  /** Users who solved it. */
  solves: number;
  /** solves / starters as a percent (one decimal); null when nobody started it. */
  success_rate: number | null;
  /** Median solve time in seconds; null without solves. */
  median_solve_seconds: number | null;
}

export interface ReloadReport {
  loaded: string[];
  added: string[];
  removed: string[];
  /** One message per folder that did not load (file and field named). */
  problems: string[];
}

export interface SystemFigures {
  cpu: { percent: number; cores: number; load: [number, number, number] };
  memory: { percent: number; used_bytes: number; total_bytes: number };
  storage: { percent: number; used_bytes: number; total_bytes: number; path: string };
  /** Accounts with a sign-in or token refresh in the last 15 minutes. */
  activeUsers: number;
  /** Deployments running now. */
  activeSessions: number;
  measured_at: number;
}

export interface SystemSettings {
  session_timeout_minutes: number;
  max_concurrent_deployments: number;
  maintenance_mode: boolean;
}

export interface SystemSettingsWithLimits extends SystemSettings {
  limits: { sessionTimeoutMin: number; sessionTimeoutMax: number; maxConcurrentMin: number; maxConcurrentMax: number };
}

/** Public: what the global banner shows. */
export interface SystemNotice {
  maintenance: boolean;
  message: string | null;
}
