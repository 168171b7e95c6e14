// Recordings of shells (server/core/recordings/): one row per shell of a deployment, from ssh or
// the browser terminal, whose asciicast v2 file lives under DATA_DIR/recordings/. The file is the
// record; the row says whose it is, where it is and whether it was cut at the size bound.
import type { Kysely, Migration } from "kysely";

export const recordings0011: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("recordings")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      // No foreign key: a deployment row may be removed while its player's recordings are kept.
      .addColumn("deployment_id", "text", (c) => c.notNull())
      .addColumn("challenge_id", "text", (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("started_at", "bigint", (c) => c.notNull())
      .addColumn("ended_at", "bigint")
      .addColumn("bytes", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("truncated", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("path", "text", (c) => c.notNull())
      .addColumn("published", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("recordings_user_challenge").on("recordings").columns(["user_id", "challenge_id"]).execute();
    await db.schema.createIndex("recordings_deployment").on("recordings").column("deployment_id").execute();
  },
};
