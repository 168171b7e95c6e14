// Kysely's SQLite driver prepares every statement again on each execution (its sqlite-driver.js:
// `this.#db.prepare(sql)` per query), and a CPU profile of a signed-in page put ~5 % of the
// server's time in better-sqlite3's prepare. The same SQL text gets its compiled statement back
// here. A statement in use by an open iteration (a streamed query) is busy and cannot run again
// until it ends: such a caller gets a fresh one. SQLite re-prepares a kept statement by itself when
// the schema changed under it (sqlite3_prepare_v2), so migrations need nothing from us.
import type { Database, Statement } from "better-sqlite3";
import type { SqliteDatabase } from "kysely";

/** At most this many statements kept (the oldest used goes): queries built with a varying number
 *  of placeholders make new texts, and each statement holds memory in SQLite. */
const MAX_STATEMENTS = 1000;

export function withStatementCache(conn: Database, max = MAX_STATEMENTS): SqliteDatabase & { kept(): number } {
  const kept = new Map<string, Statement>();
  return {
    close: () => conn.close(),
    prepare(sql: string) {
      const hit = kept.get(sql);
      if (hit && !hit.busy) {
        // Most recently used last: a Map keeps insertion order.
        kept.delete(sql);
        kept.set(sql, hit);
        return hit;
      }
      const stmt = conn.prepare(sql);
      if (!hit) {
        if (kept.size >= max) kept.delete(kept.keys().next().value!);
        kept.set(sql, stmt);
      }
      return stmt;
    },
    kept: () => kept.size,
  };
}
