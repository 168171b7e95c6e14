// Several replicas on one database (docs/architecture.md, "Processes and replicas"): what used to
// live in one process's memory and must now be shared.
// - rate_limits: fixed-window counters (server/core/ratelimit-db.ts), one row a key, removed
//   once their window has passed (expires_at is epoch milliseconds).
// - deployments.deployer: the replica that is deploying the row right now, so the worker's
//   leader resumes only deployments whose replica died, never one in flight elsewhere.
// - deployments.check_until: "one check at a time" as a lease (server/core/grading.ts): taken
//   by a conditional update, given back at the end, and free again by itself if the replica
//   running the check died.
import type { Kysely, Migration } from "kysely";

export const replicas0010: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("rate_limits")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("count", "integer", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("rate_limits_expires_at").on("rate_limits").column("expires_at").execute();
    await db.schema.alterTable("deployments").addColumn("deployer", "text").execute();
    await db.schema.alterTable("deployments").addColumn("check_until", "bigint").execute();
  },
};
