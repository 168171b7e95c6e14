// Revealed hints: one row per user, challenge and hint, remembered across deployments.
// The cost is kept as it was shown when the hint was revealed, so a later change of
// challenge.yaml never charges a player more than they agreed to.
import type { Kysely, Migration } from "kysely";

export const hints: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("hint_reveals")
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("challenge_id", "text", (c) => c.notNull())
      .addColumn("hint_index", "integer", (c) => c.notNull())
      .addColumn("cost", "integer", (c) => c.notNull())
      .addColumn("revealed_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("hint_reveals_pk", ["user_id", "challenge_id", "hint_index"])
      .execute();
  },
};
