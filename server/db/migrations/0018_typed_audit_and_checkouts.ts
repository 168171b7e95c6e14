// Two changes from the second security review (docs/decisions/018-billing-and-audit-by-id.md).
//
// 1. The audit log names what an entry is about by type and id (target_type, target_id), never by
//    a name. Rows used to carry the target as text (a username, a challenge id or a recording id,
//    depending on the action) and the actor's name as text (at a failed sign-in: whatever was
//    typed). A user was matched to "their" rows by comparing that text with their username, and
//    challenge ids were valid usernames: a player named after a challenge got every player's rows
//    about it in their data export, and deleting that account blanked them. Names
//    are now read by joining users on the ids (server/core/audit.ts), so an entry can no longer be
//    claimed by choosing a name, and a deleted account's name disappears from every entry with it.
//    Existing rows are typed from what their action says the target was (the only way the old
//    text was ever written: see the call sites), and a username is resolved to its account's id
//    (none when the account is gone). Then the two text columns go, which also drops what was
//    typed at failed sign-ins, passwords typed into the name field included.
//
// 2. billing_checkouts: every Checkout Session this installation opened, with its user. A
//    completed checkout counts only if it is one of these (a Payment Link or another app's
//    session naming our user id in client_reference_id does not), and a user has at most
//    one open at a time (a partial unique index decides between two requests racing), so a second
//    subscription nobody tracks cannot be bought.
import { type Kysely, type Migration, sql } from "kysely";

/** The actions whose `target` text was a challenge id, a recording id, or a username. */
const CHALLENGE_ACTIONS = [
  "submission",
  "deployment.start",
  "deployment.terminate",
  "deployment.expire",
  "deployment.reset",
  "admin.challenge_hide",
  "admin.challenge_show",
];
const RECORDING_ACTIONS = ["recording.publish", "admin.recording_view"];
const USER_ACTIONS = [
  "auth.login",
  "auth.login_failed",
  "admin.user_create",
  "admin.user_verify",
  "admin.user_admin",
  "admin.user_plan",
  "admin.user_disable",
  "admin.user_enable",
];

export const typedAuditAndCheckouts0018: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("audit_log").addColumn("target_type", "text").execute();
    await db.schema.alterTable("audit_log").addColumn("target_id", "text").execute();
    const typed = (type: string, actions: string[]) =>
      db
        .updateTable("audit_log")
        .set({ target_type: type, target_id: sql.ref("target") })
        .where("target", "is not", null)
        .where("action", "in", actions)
        .execute();
    await typed("challenge", CHALLENGE_ACTIONS);
    await typed("recording", RECORDING_ACTIONS);
    await db
      .updateTable("audit_log")
      .set({
        target_type: "user",
        target_id: sql`(select u.id from users u where lower(u.username) = lower(audit_log.target))`,
      })
      .where("target", "is not", null)
      .where("action", "in", USER_ACTIONS)
      .execute();
    await db.schema.dropIndex("audit_log_actor").execute();
    await db.schema.alterTable("audit_log").dropColumn("actor_name").execute();
    await db.schema.alterTable("audit_log").dropColumn("target").execute();
    // "By this user" (the console's filter, the export, deletion) and "about this user".
    await db.schema.createIndex("audit_log_actor_id").on("audit_log").columns(["actor_id", "at"]).execute();
    await db.schema.createIndex("audit_log_target").on("audit_log").columns(["target_type", "target_id", "at"]).execute();

    await db.schema
      .createTable("billing_checkouts")
      // Stripe's cs_… id; `pending:<uuid>` for the moment between claiming the slot and Stripe's answer.
      .addColumn("session_id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      // open, complete or expired
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await sql`create unique index billing_checkouts_open on billing_checkouts (user_id) where status = 'open'`.execute(db);
  },
};
