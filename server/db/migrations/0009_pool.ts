// The warm pool (server/core/deployments/pool.ts): deployments made and set up ahead of any start,
// one row each, owned by no one. A start claims one by deleting its row and writing a deployment
// row with the same id (the id the engine's labels carry). Kept out of `deployments` on purpose:
// nothing that reads a user's deployments (the SSH gateway, the live channel, grading, plans,
// statistics) can ever see a pooled one.
import type { Kysely, Migration } from "kysely";

export const pool0009: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("pool_deployments")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("challenge_id", "text", (c) => c.notNull())
      // "warming" (being made and set up) or "ready" (may be claimed).
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("container_id", "text")
      // What setup.sh chose for this one (secret, as in deployments).
      .addColumn("scenario_values", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("ready_at", "bigint")
      // The engine's hard stop of the container (epoch seconds): a claim needs a full lifetime left.
      .addColumn("hard_expires_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("pool_deployments_challenge").on("pool_deployments").columns(["challenge_id", "status", "ready_at"]).execute();
  },
};
