// Step-up that holds (docs/decisions/017-step-up.md).
//
// users:
// - totp_enabled_at: when the second factor was turned on. Its codes confirm an e-mail change, a
//   key change or a deletion only once it is 24 hours old.
// - totp_session: the sign-in (refresh-token family) that turned it on. Its codes never confirm
//   those changes from that sign-in: a stolen session that enrols its own authenticator gains
//   nothing by waiting.
// - totp_removal_at: "I lost my authenticator": when the second factor goes, after the delay
//   (a sign-in with the factor before then cancels it).
// Rows that have 2FA on get updated_at as their enrolment time: it is never earlier than the
// true one, so no factor counts as older than it is. Pending set-ups (a secret not yet enabled)
// were started without the password: they are dropped, and set-up starts over with it.
//
// recovery_codes: the single-use codes shown once at enrolment, kept as SHA-256 hashes (salted
// with the user id); used_at marks a code spent (a conditional update: two parallel uses of one
// code cannot both pass). They go with their user.
import type { Kysely, Migration } from "kysely";

export const stepUp0017: Migration = {
  async up(db: Kysely<any>) {
    // SQLite adds one column per statement.
    await db.schema.alterTable("users").addColumn("totp_enabled_at", "bigint").execute();
    await db.schema.alterTable("users").addColumn("totp_session", "text").execute();
    await db.schema.alterTable("users").addColumn("totp_removal_at", "bigint").execute();
    await db
      .updateTable("users")
      .set((eb) => ({ totp_enabled_at: eb.ref("updated_at") }))
      .where("totp_enabled", "=", 1)
      .execute();
    await db.updateTable("users").set({ totp_secret: null, totp_last_step: null }).where("totp_enabled", "=", 0).execute();

    await db.schema
      .createTable("recovery_codes")
      .addColumn("code_hash", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("used_at", "bigint")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("recovery_codes_user").on("recovery_codes").column("user_id").execute();
  },
};
