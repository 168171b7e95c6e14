// The shapes in which a user leaves the core: the owner's view and the public view.
// Both are declared once, in shared/contract (the web reads the same types).
import { randomUUID } from "node:crypto";
import type { Insertable, Selectable } from "kysely";
import type { OAuthProvider, OwnUser, PublicUser } from "#shared/contract/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { UsersTable } from "#server/db/schema.ts";
import { effectivePlan } from "#shared/plans.ts";
import { NO_STATS, type UserStats } from "./scoring.ts";
import { sshKeyPreview } from "./sshkeys.ts";

export type UserRow = Selectable<UsersTable>;

type OptionalField =
  | "password_hash"
  | "display_name"
  | "bio"
  | "location"
  | "github_username"
  | "oauth_provider"
  | "ssh_public_key"
  | "ssh_key_fingerprint"
  | "totp_secret"
  | "totp_last_step"
  | "plan_until";
/** Every optional field of a new account, empty. */
const EMPTY_USER: Pick<UserRow, OptionalField> = {
  password_hash: null,
  display_name: null,
  bio: null,
  location: null,
  github_username: null,
  oauth_provider: null,
  ssh_public_key: null,
  ssh_key_fingerprint: null,
  totp_secret: null,
  totp_last_step: null,
  plan_until: null,
};

/** A new account's row: what the caller knows (name, address, how it signs in), every optional
 *  field empty. Registration, an admin's "create user" and a first OAuth sign-in all start here. */
export function newUserRow<K extends { username: string; email: string } & Partial<Insertable<UsersTable>>>(known: K) {
  const now = nowSeconds();
  return { id: randomUUID(), ...EMPTY_USER, created_at: now, updated_at: now, ...known };
}

/** The public view; `stats` comes from scoring (zeros for a user without solves). */
export function publicUser(u: UserRow, stats: UserStats = NO_STATS): PublicUser {
  return {
    username: u.username,
    display_name: u.display_name,
    bio: u.bio,
    location: u.location,
    github_username: u.github_username,
    is_verified: u.is_verified === 1,
    created_at: u.created_at,
    total_points: stats.total_points,
    rank: stats.rank,
    challenges_completed: stats.challenges_completed,
    challenges_attempted: stats.challenges_attempted,
    solve_rate: stats.solve_rate,
    average_time: stats.average_time,
    level: stats.level,
    ranked_users: stats.ranked_users,
    achievements: stats.achievements,
  };
}

export function ownUser(u: UserRow, connected: OAuthProvider[], stats: UserStats = NO_STATS): OwnUser {
  return {
    ...publicUser(u, stats),
    id: u.id,
    email: u.email,
    is_admin: u.is_admin === 1,
    theme: u.theme,
    oauth_provider: u.oauth_provider,
    connected_accounts: connected,
    has_password: u.password_hash !== null,
    has_ssh_key: u.ssh_public_key !== null,
    ssh_key_preview: u.ssh_public_key ? sshKeyPreview(u.ssh_public_key) : null,
    ssh_key_fingerprint: u.ssh_key_fingerprint,
    totp_enabled: u.totp_enabled === 1,
    notifications: {
      newChallenges: u.notify_new_challenges === 1,
      solutionFeedback: u.notify_solution_feedback === 1,
      leaderboardUpdates: u.notify_leaderboard_updates === 1,
      marketingEmails: u.notify_marketing === 1,
    },
    ...planView(u),
  };
}

/** The plan in force as the owner sees it (the rule is shared/plans.ts's effectivePlan). */
function planView(u: UserRow): Pick<OwnUser, "plan" | "plan_until"> {
  const plan = effectivePlan(u.plan, u.plan_until, Math.floor(Date.now() / 1000));
  return { plan, plan_until: plan === "pro" && u.plan_until !== null ? new Date(u.plan_until * 1000).toISOString() : null };
}
