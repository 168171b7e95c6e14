// The API's JSON shapes for accounts: sign-up and sign-in, tokens, the user views and OAuth
// (docs/api.md, "Authentication" and "Users"). The server's services declare their results as
// these types and the web's API client reads them, so each shape is written once.
import type { PlanName } from "../plans.ts";
import type { NotificationKey } from "../rules.ts";
import type { Achievement } from "./scoring.ts";

export const OAUTH_PROVIDERS = ["github", "google"] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

export const THEMES = ["dark", "light"] as const;
export type Theme = (typeof THEMES)[number];

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: "bearer";
  expires_in: number;
}

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
  /** Challenges the user got an environment for (or solved). */
  challenges_attempted: number;
  /** challenges_completed / challenges_attempted as a whole percent; null when nothing was attempted. */
  solve_rate: number | null;
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
  theme: Theme;
  oauth_provider: OAuthProvider | null;
  connected_accounts: OAuthProvider[];
  has_password: boolean;
  has_ssh_key: boolean;
  ssh_key_preview: string | null;
  ssh_key_fingerprint: string | null;
  totp_enabled: boolean;
  notifications: Record<NotificationKey, boolean>;
  /** The plan in force (shared/plans.ts): Pro only while plan_until is ahead, or without an end. */
  plan: PlanName;
  /** When Pro ends (ISO); null for free, or Pro without an end. */
  plan_until: string | null;
}

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
export type SignedInUser = Omit<OwnUser, (typeof USER_STATISTICS)[number]>;

/** POST /auth/login, /auth/login/2fa and the OAuth callback: signed in, or a second factor due. */
export type LoginResult = ({ mfa_required: false; user: OwnUser } & TokenPair) | { mfa_required: true; mfa_token: string; expires_in: number };

/** The many answers that only confirm what happened. */
export interface Message {
  message: string;
}

/** POST /auth/verify-email. */
export interface EmailVerified extends Message {
  user: OwnUser;
}

/** GET /auth/oauth/providers. */
export type OAuthProviders = Record<OAuthProvider, { enabled: boolean }>;

/** GET /auth/oauth/{provider}/login. */
export interface OAuthStart {
  state: string;
  auth_url: string;
}
