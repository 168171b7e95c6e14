// Locks that hold across every replica of one installation. On PostgreSQL a transaction takes
// advisory locks (pg_advisory_xact_lock) on the given names and holds them while `fn` runs; they
// go with the transaction's end, also when the process dies. On SQLite there is one process per
// database file, whose callers already serialise in memory: `fn` just runs.
//
// The transaction only holds the locks: `fn` does its reads and writes through the pool as usual,
// each committed at once, so the next holder sees them. Callers serialise in memory first
// (server/core/deployments/lifecycle.ts), so one process waits on at most one lock transaction at
// a time and never fills the pool with waiters.
import { PostgresAdapter, sql } from "kysely";
import { LOCK_SPACE } from "./cluster.ts";
import type { Db } from "./index.ts";

export const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function withDatabaseLocks<T>(db: Db, names: readonly string[], fn: () => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return fn();
  return db.transaction().execute(async (trx) => {
    // Always in the given order: callers name them from the widest to the narrowest, alike.
    for (const name of names) await sql`SELECT pg_advisory_xact_lock(${LOCK_SPACE.start}, hashtext(${name}))`.execute(trx);
    return fn();
  });
}
