// Rate-limit rows remember when they were last hit and the limit they were counted against
// (server/core/ratelimit-db.ts): past the bound on rows, the least recently hit go
// first and a key at its limit (a lock-out in force) never goes early. The rows' windows ending
// soonest went first before, so a flood of fresh keys evicted the oldest active lock-outs, the
// flooder's own per-address and per-account counters included. Rows from before count as "at
// their limit" (max_count 0) until their window ends: never evicted early, gone within the hour.
import type { Kysely, Migration } from "kysely";

export const rateLimitRecency0019: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable("rate_limits")
      .addColumn("last_hit", "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable("rate_limits")
      .addColumn("max_count", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
