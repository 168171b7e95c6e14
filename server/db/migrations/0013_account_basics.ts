// Account basics: password-reset links and e-mail changes waiting for the new
// address's proof (single-use secrets, stored as SHA-256 hashes like every other one), how many
// times a deployment was reset to its broken state, and when each user last got the digest of new
// challenges. Every row goes with its user (ON DELETE CASCADE): deleting an account leaves none.
import type { Kysely, Migration } from "kysely";

export const accountBasics0013: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("password_resets")
      .addColumn("token_hash", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("password_resets_user").on("password_resets").column("user_id").execute();

    await db.schema
      .createTable("email_changes")
      .addColumn("token_hash", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("new_email", "text", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("email_changes_user").on("email_changes").column("user_id").execute();

    await db.schema
      .createTable("deployment_resets")
      .addColumn("deployment_id", "text", (c) => c.primaryKey().references("deployments.id").onDelete("cascade"))
      .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("notification_digests")
      .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("last_sent_at", "bigint", (c) => c.notNull())
      .execute();
  },
};
