// Kysely table types. Times are epoch seconds (integers) and flags are 0/1 integers in both
// SQLite and PostgreSQL, so one query layer reads the same values from either database.
// Over 350 lines: every table's row type, one interface each, in one place so a query's types have
//  one source.
import type { ColumnType, Generated } from "kysely";
import type { Difficulty } from "#shared/contract/index.ts";

export type Flag = 0 | 1;

export type Plan = "free" | "pro";

export interface UsersTable {
  id: string;
  username: string;
  email: string;
  password_hash: string | null;
  is_admin: Generated<Flag>;
  is_verified: Generated<Flag>;
  display_name: string | null;
  bio: string | null;
  location: string | null;
  theme: Generated<"dark" | "light">;
  github_username: string | null;
  oauth_provider: "github" | "google" | null;
  ssh_public_key: string | null;
  ssh_key_fingerprint: string | null;
  totp_secret: string | null;
  totp_enabled: Generated<Flag>;
  /** The last TOTP time step accepted: a code is good once only. */
  totp_last_step: number | null;
  /** When 2FA was turned on (migration 0017): its codes are a step-up only once 24 hours old. */
  totp_enabled_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** The sign-in (refresh-token family) that turned 2FA on: never a step-up from there. */
  totp_session: ColumnType<string | null, string | null | undefined, string | null>;
  /** "Lost my authenticator": when 2FA goes, unless a sign-in with it comes first. */
  totp_removal_at: ColumnType<number | null, number | null | undefined, number | null>;
  notify_new_challenges: Generated<Flag>;
  notify_solution_feedback: Generated<Flag>;
  notify_leaderboard_updates: Generated<Flag>;
  notify_marketing: Generated<Flag>;
  /** The plan bought or granted (server/core/plans.ts); Pro counts only while plan_until is ahead. */
  plan: Generated<Plan>;
  /** When Pro ends (epoch seconds); null: no end (an admin's grant). Ignored for free. */
  plan_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface OAuthAccountsTable {
  provider: "github" | "google";
  provider_user_id: string;
  user_id: string;
  email: string | null;
  login: string | null;
  created_at: number;
}

/** One table for every single-use secret: e-mail verification links, 2FA login challenges,
 *  the links that start removing a lost authenticator. */
export interface VerificationsTable {
  token_hash: string;
  purpose: "email" | "login-2fa" | "2fa-removal";
  user_id: string;
  expires_at: number;
  attempts: Generated<number>;
  created_at: number;
}

/** Single-use 2FA recovery codes (migration 0017): SHA-256 of the user id and the code. */
export interface RecoveryCodesTable {
  code_hash: string;
  user_id: string;
  used_at: number | null;
  created_at: number;
}

export interface RefreshTokensTable {
  token_hash: string;
  user_id: string;
  family_id: string;
  expires_at: number;
  /** Set when rotated or revoked; presenting a token with this set revokes its family. */
  revoked_at: number | null;
  created_at: number;
}

/** Personal API tokens (migration 0025): only the SHA-256 of each token is kept. */
export interface PersonalTokensTable {
  id: string;
  user_id: string;
  name: string;
  scope: "read" | "play";
  token_hash: string;
  created_at: number;
  /** Null: never expires. */
  expires_at: number | null;
  /** Written at most once a minute per token. */
  last_used_at: number | null;
}

export interface OAuthStatesTable {
  state_hash: string;
  provider: "github" | "google";
  code_verifier: string;
  expires_at: number;
  created_at: number;
}

export interface WebSessionsTable {
  /** SHA-256 of the session id (the cookie holds the id). */
  id_hash: string;
  /** The signed-in user; null while the session only carries pre-login state. */
  user_id: string | null;
  /** AES-256-GCM ciphertext of the session's JSON data (server/core/auth/web-sessions.ts). */
  data: string;
  expires_at: number;
  created_at: number;
}

export interface ChallengesTable {
  /** The folder name under challenges/ (the uid in the API). */
  id: string;
  title: string;
  category: string;
  difficulty: Difficulty;
  points: number;
  estimated_time_minutes: number | null;
  short_description: string | null;
  description: string;
  instructions: string;
  /** JSON array of strings. */
  hints: string;
  /** JSON array of strings. */
  tags: string;
  badge: "trending" | "new" | "popular" | null;
  incident_note: string | null;
  /** JSON ChallengeGrading: how the challenge is graded, shown before a start. */
  grading: string | null;
  is_approved: Generated<Flag>;
  votes: Generated<number>;
  created_at: number;
  updated_at: number;
}

export type DeploymentStatus = "queued" | "deploying" | "setting_up" | "ready" | "resetting" | "failed" | "terminated";

export interface DeploymentsTable {
  id: string;
  user_id: string;
  challenge_id: string;
  status: DeploymentStatus;
  error_message: string | null;
  ssh_user: string;
  container_id: string | null;
  /** JSON object: what setup.sh chose. Secret: only the check sees it. */
  scenario_values: string | null;
  /** "<user_id>:<challenge_id>" while active (unique), NULL once ended. */
  active_key: string | null;
  created_at: number;
  ready_at: number | null;
  expires_at: number;
  ended_at: number | null;
  updated_at: number;
  /** The replica deploying it right now (migration 0010_replicas); null when none. */
  deployer?: string | null;
  /** "One check at a time": a check runs until then, epoch seconds (migration 0010_replicas). */
  check_until?: number | null;
}

export interface SubmissionsTable {
  id: string;
  user_id: string;
  challenge_id: string;
  deployment_id: string;
  solution: string;
  is_correct: Flag;
  feedback: string;
  /** What the platform made of the written answer (server/core/answers.ts): "right", "wrong",
   *  "ambiguous" (named more than one candidate); null when the challenge asks no question. */
  answer_verdict: "right" | "wrong" | "ambiguous" | null;
  created_at: number;
}

export interface SolvesTable {
  user_id: string;
  challenge_id: string;
  deployment_id: string;
  points: number;
  /** From the deployment's start to the correct submission. */
  solve_seconds: number;
  solved_at: number;
}

/** Nonces handed out for proving possession of an SSH key (stored hashed, single use). */
export interface SshKeyNoncesTable {
  nonce_hash: string;
  user_id: string;
  expires_at: number;
  /** Milliseconds since the epoch (ordering within a second). */
  created_ms: number;
}

/** A user's subscription at the payment provider, as its last applied webhook described it. */
export interface BillingSubscriptionsTable {
  user_id: string;
  customer_id: string;
  subscription_id: string | null;
  /** The provider's status ("active", "past_due", "canceled", ...). */
  status: string;
  /** 1: cancelled by the user, Pro lasts to current_period_end and does not renew. */
  cancel_at_period_end: Generated<Flag>;
  current_period_end: number | null;
  /** The `created` time of the last event applied (older deliveries are ignored). */
  event_created: Generated<number>;
  updated_at: number;
}

/** Checkout Sessions this installation opened (server/core/billing.ts): only these count when
 *  completed, and a user has at most one open (a partial unique index). */
export interface BillingCheckoutsTable {
  /** The provider's session id (`pending:<uuid>` until the provider answered). */
  session_id: string;
  user_id: string;
  status: "open" | "complete" | "expired";
  created_at: number;
  expires_at: number;
}

/** Webhook events processed once (their id is the provider's). */
export interface BillingEventsTable {
  id: string;
  type: string;
  received_at: number;
}

/** The audit log (server/core/audit.ts): who did what to what, when, from where. */
export interface AuditLogTable {
  /** Sortable by time: 11 base-36 digits of milliseconds, then random. */
  id: string;
  at: number;
  /** The acting user's id, null for the platform itself (expiry) or a sign-in naming no account.
   *  Names are never stored: they are read from users by id (migration 0018). */
  actor_id: string | null;
  action: string;
  /** What the entry is about: "user", "challenge" or "recording" (AuditTargetType), and its id. */
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  /** JSON object with whatever else the action needs said. */
  detail: string | null;
}

/** Accounts disabled by an admin (server/core/admin/users.ts): no sign-in, no token accepted. */
export interface DisabledUsersTable {
  user_id: string;
  disabled_at: number;
}

/** Challenges an admin hid: not listed, and only admins can start them (kept across reloads). */
export interface HiddenChallengesTable {
  challenge_id: string;
  hidden_at: number;
}

/** Settings an admin changes at run time (server/core/admin/settings.ts), one JSON value a key. */
export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

/** One recorded shell (server/core/recordings/): an asciicast v2 file under RECORDINGS_DIR. Times
 *  are epoch seconds; `path` is relative to RECORDINGS_DIR (migration 0016); `truncated` 1 when
 *  output was cut at the bound (or recording stopped at the free-space floor). */
export interface RecordingsTable {
  id: string;
  user_id: string;
  deployment_id: string;
  challenge_id: string;
  source: "ssh" | "web";
  started_at: number;
  ended_at: number | null;
  bytes: number;
  truncated: number;
  path: string;
  published: Generated<number>;
  /** The commands typed, as a JSON array of strings, once extracted (migration 0016); null until. */
  commands: string | null;
  /** 1 when a bound stopped the extraction (server/core/recordings/compare.ts). */
  commands_cut: Generated<number>;
}

/** The bytes and files of all recordings, kept by triggers (migration 0016): one row, 'all'. */
export interface RecordingUsageTable {
  scope: string;
  bytes: number;
  files: number;
}

/** Hints a user revealed (migration 0012_hints); the cost as it was shown at the reveal. */
export interface HintRevealsTable {
  user_id: string;
  challenge_id: string;
  hint_index: number;
  cost: number;
  revealed_at: number;
}

/** Password-reset links (migration 0013): the SHA-256 of the token, single use, one hour. */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  expires_at: number;
  created_at: number;
}

/** A new e-mail address waiting for its proof (migration 0013); the old one stays until then. */
export interface EmailChangesTable {
  token_hash: string;
  user_id: string;
  new_email: string;
  expires_at: number;
  created_at: number;
}

/** How many times a deployment was reset to its broken state (migration 0013). */
export interface DeploymentResetsTable {
  deployment_id: string;
  count: Generated<number>;
  updated_at: number;
}

/** When a user last got the digest of new challenges (migration 0013). */
export interface NotificationDigestsTable {
  user_id: string;
  last_sent_at: number;
}

/** A fixed-window rate-limit counter (migration 0010_replicas, server/core/ratelimit-db.ts);
 *  expires_at in epoch milliseconds. */
export interface RateLimitsTable {
  key: string;
  count: number;
  expires_at: number;
  /** When the key was last hit (epoch ms; migration 0019): eviction takes the oldest first. */
  last_hit: Generated<number>;
  /** The limit of the last hit: a key whose count reached it is never evicted early. */
  max_count: Generated<number>;
}

/** Warm deployments made ahead of any start (server/core/deployments/pool.ts), owned by no one. */
export interface PoolDeploymentsTable {
  id: string;
  challenge_id: string;
  status: "warming" | "ready";
  container_id: string | null;
  scenario_values: string | null;
  created_at: number;
  ready_at: number | null;
  hard_expires_at: number;
}

/** Scores kept by triggers as solves change (server/db/migrations/0008_scores.ts). One row per
 *  user and period bucket; `start` is the bucket's first second (0 for all_time). */
export interface ScoreBucketsTable {
  period: "all_time" | "this_month" | "this_week" | "today";
  start: number;
  user_id: string;
  username: string;
  /** lower(username): the last tie-break of the board. */
  name_key: string;
  points: number;
  solves: number;
  seconds: number;
  last_at: number;
}

/** How many users of a bucket hold each points total above 0 (dense ranks, board sizes). */
export interface ScoreLevelsTable {
  period: ScoreBucketsTable["period"];
  start: number;
  points: number;
  users: number;
}

/** Per bucket, a version moved by every change of who is on its board or under which name
 *  (migration 0015): a search's count is remembered against it. No row: version 0. */
export interface ScoreBoardsTable {
  period: ScoreBucketsTable["period"];
  start: number;
  version: number;
}

/** Per board and search (its LIKE pattern), how many of the board's players match, at which
 *  version of the board (migration 0022: triggers keep it as players join, leave, are renamed). */
export interface ScoreSearchCountsTable {
  period: ScoreBucketsTable["period"];
  start: number;
  pattern: string;
  total: number;
  version: number;
  counted_at: number;
}

/** PostgreSQL only (migration 0023): per board and points level, players per UTC day of their
 *  last solve (day: epoch seconds at its start). */
export interface ScoreLevelDaysTable {
  period: ScoreBucketsTable["period"];
  start: number;
  points: number;
  day: number;
  users: number;
}

export interface ChallengeSolvesTable {
  challenge_id: string;
  solves: number;
}

/** 'users', 'solves' and 'changes' (bumped by every change a public read can show). */
export interface ScoreCountersTable {
  name: "users" | "solves" | "changes";
  n: number;
}

/** SQLite only (migration 0014): each user's lower(username) under a stable integer id, the
 *  content of the trigram index `user_name_trigrams` (PostgreSQL indexes users directly). */
export interface UserNameKeysTable {
  id: Generated<number>;
  user_id: string;
  name_key: string;
}

/** SQLite only (migration 0014): FTS5 trigram index over user_name_keys (rowid = its id). */
export interface UserNameTrigramsTable {
  rowid: number;
  name_key: string;
}

export interface Database {
  users: UsersTable;
  oauth_accounts: OAuthAccountsTable;
  verifications: VerificationsTable;
  recovery_codes: RecoveryCodesTable;
  refresh_tokens: RefreshTokensTable;
  personal_tokens: PersonalTokensTable;
  oauth_states: OAuthStatesTable;
  web_sessions: WebSessionsTable;
  challenges: ChallengesTable;
  deployments: DeploymentsTable;
  submissions: SubmissionsTable;
  solves: SolvesTable;
  ssh_key_nonces: SshKeyNoncesTable;
  billing_subscriptions: BillingSubscriptionsTable;
  billing_events: BillingEventsTable;
  billing_checkouts: BillingCheckoutsTable;
  audit_log: AuditLogTable;
  settings: SettingsTable;
  disabled_users: DisabledUsersTable;
  hidden_challenges: HiddenChallengesTable;
  score_buckets: ScoreBucketsTable;
  score_levels: ScoreLevelsTable;
  score_boards: ScoreBoardsTable;
  score_search_counts: ScoreSearchCountsTable;
  score_level_days: ScoreLevelDaysTable;
  challenge_solves: ChallengeSolvesTable;
  score_counters: ScoreCountersTable;
  user_name_keys: UserNameKeysTable;
  user_name_trigrams: UserNameTrigramsTable;
  pool_deployments: PoolDeploymentsTable;
  rate_limits: RateLimitsTable;
  recordings: RecordingsTable;
  recording_usage: RecordingUsageTable;
  hint_reveals: HintRevealsTable;
  password_resets: PasswordResetsTable;
  email_changes: EmailChangesTable;
  deployment_resets: DeploymentResetsTable;
  notification_digests: NotificationDigestsTable;
}
