// The shapes in which a user leaves the core: the owner's view and the public view.
import type { Selectable } from "kysely";
import type { UsersTable } from "../db/schema.ts";
import { type Achievement, NO_STATS, type UserStats } from "./scoring.ts";
import { sshKeyPreview } from "./sshkeys.ts";

export type UserRow = Selectable<UsersTable>;

export interface PublicUser {
  username: string;
  display_name: string | null;
  bio: string | null;
  location: string | null;
  github_username: string | null;
  is_verified: boolean;
  created_at: number;
  total_points: number;
  rank: number | null;
  challenges_completed: number;
  average_time: number | null;
  /** floor(total_points / 1000). */
  level: number;
  /** How many users hold a rank: "rank N of M". */
  ranked_users: number;
  achievements: Achievement[];
}

export interface OwnUser extends PublicUser {
  id: string;
  email: string;
  is_admin: boolean;
  theme: "dark" | "light";
  oauth_provider: "github" | "google" | null;
  connected_accounts: ("github" | "google")[];
  has_password: boolean;
  has_ssh_key: boolean;
  ssh_key_preview: string | null;
  ssh_key_fingerprint: string | null;
  totp_enabled: boolean;
  notifications: {
    newChallenges: boolean;
    solutionFeedback: boolean;
    leaderboardUpdates: boolean;
    marketingEmails: boolean;
  };
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
    average_time: stats.average_time,
    level: stats.level,
    ranked_users: stats.ranked_users,
    achievements: stats.achievements,
  };
}

export function ownUser(u: UserRow, connected: ("github" | "google")[], stats: UserStats = NO_STATS): OwnUser {
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
  };
}
