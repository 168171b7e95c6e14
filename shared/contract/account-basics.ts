// The API's JSON shapes for the account basics: password reset, e-mail change,
// account deletion, the data export, unsubscribe links and a deployment's reset. docs/api.md
// ("Account basics") describes the same answers in prose. A leaf: imports only its siblings.
import type { Message, OwnUser } from "./accounts.ts";

/** POST /auth/password-reset/check. */
export interface PasswordResetCheck {
  valid: boolean;
}

/** POST /users/me/email/confirm. */
export interface EmailChanged extends Message {
  user: OwnUser;
}

/** GET /notifications/unsubscribe?token=: what the link turns off. */
export interface UnsubscribeInfo {
  setting: "solution_feedback" | "new_challenges";
  label: string;
  subscribed: boolean;
}

/** POST /challenges/{id}/session/reset (202: the new containers come in the background). */
export interface DeploymentResetResult extends Message {
  deployment_id: string;
  expires_at: string;
  resets_left: number;
}

/** GET /users/me/export: everything personal the platform holds about the caller (no secrets). */
export interface AccountExport {
  format: "faultline-account-export";
  version: 2;
  exported_at: string;
  profile: {
    id: string;
    username: string;
    email: string;
    display_name: string | null;
    bio: string | null;
    location: string | null;
    github_username: string | null;
    oauth_provider: string | null;
    is_verified: boolean;
    is_admin: boolean;
    theme: string;
    plan: string;
    plan_until: number | null;
    two_factor_enabled: boolean;
    has_password: boolean;
    created_at: number;
    updated_at: number;
  };
  settings: { notifications: { newChallenges: boolean; solutionFeedback: boolean; leaderboardUpdates: boolean; marketingEmails: boolean } };
  ssh_keys: { fingerprint: string }[];
  connected_accounts: { provider: string; login: string | null; email: string | null; linked_at: number }[];
  deployments: { id: string; challenge_id: string; status: string; created_at: number; ended_at: number | null; expires_at: number }[];
  submissions: { id: string; challenge_id: string; deployment_id: string; solution: string; is_correct: boolean; feedback: string; created_at: number }[];
  solves: { challenge_id: string; points: number; solve_seconds: number; solved_at: number }[];
  achievements: { id: string; title: string; unlocked: boolean }[];
  recordings: { id: string; challenge_id: string; source: string; started_at: number; ended_at: number | null; bytes: number; published: boolean }[];
  /** What they did and what was done to their account; `target_id` with `target_type` "user" is them. */
  audit_entries: {
    at: number;
    action: string;
    target_type: string | null;
    target_id: string | null;
    ip: string | null;
    detail: Record<string, unknown> | null;
  }[];
}
