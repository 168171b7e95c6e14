// Migrations written once with Kysely's schema builder, which emits the right DDL for SQLite
// and PostgreSQL alike. Append new migrations; never edit one that has shipped.
import { type Kysely, type Migration, type MigrationProvider, sql } from "kysely";
// Migrations from 0008 on live one per file in server/db/migrations/, registered below in order.
import { scores as m0008 } from "./migrations/0008_scores.ts";
import { pool0009 } from "./migrations/0009_pool.ts";
import { replicas0010 } from "./migrations/0010_replicas.ts";
import { recordings0011 } from "./migrations/0011_recordings.ts";
import { hints as m0012 } from "./migrations/0012_hints.ts";
import { accountBasics0013 } from "./migrations/0013_account_basics.ts";
import { nameTrigrams0014 } from "./migrations/0014_name_trigrams.ts";
import { boardVersions0015 } from "./migrations/0015_board_versions.ts";
import { recordingBounds0016 } from "./migrations/0016_recording_bounds.ts";
import { stepUp0017 } from "./migrations/0017_step_up.ts";
import { typedAuditAndCheckouts0018 } from "./migrations/0018_typed_audit_and_checkouts.ts";
import { rateLimitRecency0019 } from "./migrations/0019_rate_limit_recency.ts";
import { answers0020 } from "./migrations/0020_answers.ts";
import { disabledOffBoard0021 } from "./migrations/0021_disabled_off_board.ts";
import { searchCounts0022 } from "./migrations/0022_search_counts.ts";
import { levelDays0023 } from "./migrations/0023_level_days.ts";
import { personalTokens0025 } from "./migrations/0025_personal_tokens.ts";

const now = sql`0`;

export const migrations: Record<string, Migration> = {
  "0001_accounts": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("users")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("username", "text", (c) => c.notNull())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("password_hash", "text")
        .addColumn("is_admin", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("is_verified", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("display_name", "text")
        .addColumn("bio", "text")
        .addColumn("location", "text")
        .addColumn("theme", "text", (c) => c.notNull().defaultTo("dark"))
        .addColumn("github_username", "text")
        .addColumn("oauth_provider", "text")
        .addColumn("ssh_public_key", "text")
        .addColumn("ssh_key_fingerprint", "text")
        .addColumn("totp_secret", "text")
        .addColumn("totp_enabled", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("totp_last_step", "bigint")
        .addColumn("notify_new_challenges", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("notify_solution_feedback", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("notify_leaderboard_updates", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("notify_marketing", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "bigint", (c) => c.notNull().defaultTo(now))
        .addColumn("updated_at", "bigint", (c) => c.notNull().defaultTo(now))
        .execute();
      // Usernames and e-mails are unique regardless of case.
      await db.schema
        .createIndex("users_username_lower")
        .on("users")
        .unique()
        .expression(sql`lower(username)`)
        .execute();
      await db.schema
        .createIndex("users_email_lower")
        .on("users")
        .unique()
        .expression(sql`lower(email)`)
        .execute();

      await db.schema
        .createTable("oauth_accounts")
        .addColumn("provider", "text", (c) => c.notNull())
        .addColumn("provider_user_id", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("email", "text")
        .addColumn("login", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("oauth_accounts_pk", ["provider", "provider_user_id"])
        .execute();

      await db.schema
        .createTable("verifications")
        .addColumn("token_hash", "text", (c) => c.primaryKey())
        .addColumn("purpose", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("refresh_tokens")
        .addColumn("token_hash", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("family_id", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("revoked_at", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("refresh_tokens_family").on("refresh_tokens").column("family_id").execute();

      await db.schema
        .createTable("oauth_states")
        .addColumn("state_hash", "text", (c) => c.primaryKey())
        .addColumn("provider", "text", (c) => c.notNull())
        .addColumn("code_verifier", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("web_sessions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();
    },
  },
  "0002_challenges_deployments": {
    async up(db: Kysely<any>) {
      // The catalogue, synchronised from challenges/<slug>/challenge.yaml at start (catalogue.ts):
      // a table so that search, filters, ordering and joins with solves happen in the database.
      await db.schema
        .createTable("challenges")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("category", "text", (c) => c.notNull())
        .addColumn("difficulty", "text", (c) => c.notNull())
        .addColumn("points", "integer", (c) => c.notNull())
        .addColumn("estimated_time_minutes", "integer")
        .addColumn("short_description", "text")
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("instructions", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("hints", "text", (c) => c.notNull().defaultTo("[]"))
        .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
        .addColumn("badge", "text")
        .addColumn("incident_note", "text")
        .addColumn("is_approved", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("votes", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("deployments")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("challenge_id", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("error_message", "text")
        .addColumn("ssh_user", "text", (c) => c.notNull())
        .addColumn("container_id", "text")
        // What setup.sh chose for this deployment (the check needs it; never sent to the user).
        .addColumn("scenario_values", "text")
        // "<user_id>:<challenge_id>" while the deployment is active, NULL once it ended: the
        // unique index makes "one active deployment per user per challenge" the database's rule.
        .addColumn("active_key", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("ready_at", "bigint")
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("ended_at", "bigint")
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("deployments_active_key").on("deployments").column("active_key").unique().execute();
      await db.schema.createIndex("deployments_user").on("deployments").columns(["user_id", "status"]).execute();
      await db.schema.createIndex("deployments_status").on("deployments").columns(["status", "expires_at"]).execute();

      await db.schema
        .createTable("submissions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("challenge_id", "text", (c) => c.notNull())
        .addColumn("deployment_id", "text", (c) => c.notNull())
        .addColumn("solution", "text", (c) => c.notNull())
        .addColumn("is_correct", "integer", (c) => c.notNull())
        .addColumn("feedback", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("submissions_user").on("submissions").columns(["user_id", "created_at"]).execute();

      // One row per (user, challenge) solved: the primary key decides "already solved" (rCTF).
      await db.schema
        .createTable("solves")
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("challenge_id", "text", (c) => c.notNull())
        .addColumn("deployment_id", "text", (c) => c.notNull())
        .addColumn("points", "integer", (c) => c.notNull())
        .addColumn("solve_seconds", "integer", (c) => c.notNull())
        .addColumn("solved_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("solves_pk", ["user_id", "challenge_id"])
        .execute();
      await db.schema.createIndex("solves_solved_at").on("solves").column("solved_at").execute();
    },
  },
  "0003_unique_ssh_keys": {
    async up(db: Kysely<any>) {
      // One account per public key: the SSH gateway finds the account by the key a client
      // offers. Public keys are public (github.com/<user>.keys), so without this anybody could
      // register someone else's key and have their connections land in a deployment of theirs.
      await db.schema.createIndex("users_ssh_key_fingerprint").on("users").column("ssh_key_fingerprint").unique().execute();
    },
  },
  "0004_web_sessions_hashed": {
    async up(db: Kysely<any>) {
      // Web sessions keyed by the SHA-256 of their id, with their data (access and refresh
      // tokens) encrypted (server/core/auth/web-sessions.ts): a copy of the database no longer
      // signs anyone in. Old rows cannot be converted (their ids are not kept), so everyone
      // signs in again once.
      await db.schema.dropTable("web_sessions").execute();
      await db.schema
        .createTable("web_sessions")
        .addColumn("id_hash", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("web_sessions_user").on("web_sessions").column("user_id").execute();
      await db.schema.createIndex("web_sessions_expires").on("web_sessions").column("expires_at").execute();
    },
  },
  "0005_ssh_key_nonces": {
    async up(db: Kysely<any>) {
      // Proof of possession for SSH keys: the server hands out a nonce, the key's owner signs it
      // (ssh-keygen -Y sign) and the key is saved only with a good signature. Stored hashed,
      // single use, short-lived (server/core/sshkey-proofs.ts).
      await db.schema
        .createTable("ssh_key_nonces")
        .addColumn("nonce_hash", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        // Milliseconds: several nonces may be issued within a second, and the oldest go first.
        .addColumn("created_ms", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("ssh_key_nonces_user").on("ssh_key_nonces").columns(["user_id", "created_ms"]).execute();
    },
  },
  "0006_plans": {
    async up(db: Kysely<any>) {
      // Plans (server/core/plans.ts): free or pro, with the time Pro runs to (NULL: no end, as
      // an admin may grant it). One ALTER per column: SQLite adds one column at a time.
      await db.schema
        .alterTable("users")
        .addColumn("plan", "text", (c) => c.notNull().defaultTo("free"))
        .execute();
      await db.schema.alterTable("users").addColumn("plan_until", "bigint").execute();

      // The payment provider's customer and subscription of a user (server/core/billing.ts), as
      // its last applied webhook described them. event_created orders events: the provider may
      // deliver an older one after a newer one, and the older must not win.
      await db.schema
        .createTable("billing_subscriptions")
        .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
        .addColumn("customer_id", "text", (c) => c.notNull())
        .addColumn("subscription_id", "text")
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("cancel_at_period_end", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("current_period_end", "bigint")
        .addColumn("event_created", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("billing_subscriptions_customer").on("billing_subscriptions").column("customer_id").execute();
      await db.schema.createIndex("billing_subscriptions_subscription").on("billing_subscriptions").column("subscription_id").unique().execute();

      // Webhook events already processed: the provider retries deliveries, and a replayed event
      // must change nothing (the primary key decides, as with solves).
      await db.schema
        .createTable("billing_events")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("received_at", "bigint", (c) => c.notNull())
        .execute();
    },
  },
  "0007_admin": {
    async up(db: Kysely<any>) {
      // The admin console (server/core/admin/): disabled accounts, hidden challenges, the audit
      // log and the settings an admin changes while the platform runs.
      // Tables of their own rather than columns: a flag few rows carry, and the row types the
      // rest of the code builds stay as they are.
      await db.schema
        .createTable("disabled_users")
        .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
        .addColumn("disabled_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("hidden_challenges")
        .addColumn("challenge_id", "text", (c) => c.primaryKey())
        .addColumn("hidden_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("audit_log")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("at", "bigint", (c) => c.notNull())
        .addColumn("actor_id", "text")
        .addColumn("actor_name", "text")
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("target", "text")
        .addColumn("ip", "text")
        .addColumn("detail", "text")
        .execute();
      await db.schema.createIndex("audit_log_at").on("audit_log").column("at").execute();
      await db.schema.createIndex("audit_log_action").on("audit_log").columns(["action", "at"]).execute();
      await db.schema.createIndex("audit_log_actor").on("audit_log").columns(["actor_name", "at"]).execute();
      await db.schema
        .createTable("settings")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
    },
  },
  "0008_scores": m0008,
  "0009_pool": pool0009,
  "0010_replicas": replicas0010,
  "0011_recordings": recordings0011,
  "0012_hints": m0012,
  "0013_account_basics": accountBasics0013,
  "0014_name_trigrams": nameTrigrams0014,
  "0015_board_versions": boardVersions0015,
  "0016_recording_bounds": recordingBounds0016,
  "0017_step_up": stepUp0017,
  "0018_typed_audit_and_checkouts": typedAuditAndCheckouts0018,
  "0019_rate_limit_recency": rateLimitRecency0019,
  "0020_answers": answers0020,
  "0021_disabled_off_board": disabledOffBoard0021,
  "0022_search_counts": searchCounts0022,
  "0023_level_days": levelDays0023,
  "0025_personal_tokens": personalTokens0025,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
