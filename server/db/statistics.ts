// Planner statistics: without them SQLite has no idea how selective an index is, and a
// PostgreSQL that has just been bulk-loaded (a restore, the seeding bench) plans as if tables
// were empty, so queries that an index serves can end up as scans. Refreshed after migrations
// at start and then periodically (cheap: both sample rather than read every row).
import { PostgresAdapter, sql } from "kysely";
import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";

type Db = Kysely<Database>;

/** How often the running platform refreshes them (server/platform.ts). */
export const STATISTICS_INTERVAL_MS = 60 * 60 * 1000;

/**
 * SQLite: ANALYZE with a bounded sample per index (analysis_limit), or every row with `full`.
 * PostgreSQL: ANALYZE of the whole database (sampled by design).
 */
export async function refreshStatistics(db: Db, opts: { full?: boolean } = {}): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`analyze`.execute(db);
    return;
  }
  await sql.raw(`pragma analysis_limit = ${opts.full ? 0 : 1000}`).execute(db);
  await sql`analyze`.execute(db);
}
