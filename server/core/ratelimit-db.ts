// Fixed-window rate limits kept in PostgreSQL (the rate_limits table, migration 0010_replicas),
// so every replica of one installation counts against the same allowance: a client cannot get
// N budgets by spreading its attempts over N replicas. Same interface and answers as the
// in-memory store (ratelimit.ts); the platform picks this one on PostgreSQL.
//
// Each hit is one conditional UPSERT on the key's row, atomic in the database. consumeAll runs
// its UPSERTs in one transaction, keys in a fixed order (no deadlock between two callers), and
// rolls back every hit when one key refuses: what the memory store gets from doing everything
// in one synchronous step.
//
// Growth is bounded: rows whose window has passed are deleted every minute (and after every
// tenth of `maxKeys` hits by this replica, so a flood of fresh keys cannot outgrow the bound
// between two minutes), and past `maxKeys` rows the least recently hit go first, as in the memory
// store; a key that has reached its limit (a lock-out in force) is never evicted early, so
// fresh keys cannot buy back anyone's attempts. Windows are measured on each
// replica's own clock: keep them in time (NTP).
import { sql } from "kysely";
import type { Db } from "#server/db/index.ts";
import { tooManyRequests } from "./errors.ts";
import { type Limit, MAX_RATE_LIMIT_KEYS, type RateLimiter } from "./ratelimit.ts";

const CLEANUP_EVERY_MS = 60_000;

export interface DbRateLimiterOptions {
  clock?: () => number;
  maxKeys?: number;
  /** How often expired rows are removed (tests shorten it). */
  cleanupEveryMs?: number;
}

export function createDbRateLimiter(db: Db, { clock = Date.now, maxKeys = MAX_RATE_LIMIT_KEYS, cleanupEveryMs = CLEANUP_EVERY_MS }: DbRateLimiterOptions = {}) {
  /** The key's open window (count, end in epoch ms), or none. */
  async function open(key: string, t = Math.floor(clock()), on: Db = db) {
    return on.selectFrom("rate_limits").select(["count", "expires_at"]).where("key", "=", key).where("expires_at", ">", t).executeTakeFirst();
  }

  const refusal = (expiresAt: number, t: number) => tooManyRequests(Math.max(Math.ceil((expiresAt - t) / 1000), 1));

  /**
   * Counts one hit on the key: a new window when there is none or it has passed. With `max`,
   * only while the window has room; returns false (nothing counted) when it has none.
   */
  async function upsert(on: Db, key: string, limit: Limit, t: number, max?: number): Promise<boolean> {
    const fresh = t + limit.windowSeconds * 1000;
    const room = max === undefined ? sql`true` : sql`rate_limits.expires_at <= ${t} OR rate_limits.count < ${max}`;
    const { rows } = await sql<{ count: number }>`
      INSERT INTO rate_limits (key, count, expires_at, last_hit, max_count) VALUES (${key}, 1, ${fresh}, ${t}, ${limit.max})
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN rate_limits.expires_at <= ${t} THEN 1 ELSE rate_limits.count + 1 END,
        expires_at = CASE WHEN rate_limits.expires_at <= ${t} THEN ${fresh} ELSE rate_limits.expires_at END,
        last_hit = ${t},
        max_count = ${limit.max}
      WHERE ${room}
      RETURNING count`.execute(on);
    if (rows.length === 1 && ++hitsSinceCleanup >= cleanupAfterHits) void cleanupOnce();
    return rows.length === 1;
  }

  async function consumeAll(entries: [key: string, limit: Limit][]) {
    const t = Math.floor(clock());
    const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    await db.transaction().execute(async (trx) => {
      for (const [key, limit] of sorted) {
        if (await upsert(trx, key, limit, t, limit.max)) continue;
        // Full: the row is locked by our UPSERT, so its end is the one that refused us.
        const w = await open(key, t, trx);
        throw refusal(w?.expires_at ?? t + 1000, t);
      }
    });
  }

  /** Expired rows go; past maxKeys, the least recently hit of those below their limit, down to
   *  a tenth under the bound (as the memory store does), so the hits that land while this runs
   *  start from room, not from the bound. */
  async function cleanup() {
    hitsSinceCleanup = 0;
    await db.deleteFrom("rate_limits").where("expires_at", "<=", clock()).execute();
    // One statement counts and deletes: rows inserted meanwhile are counted too.
    await sql`
      DELETE FROM rate_limits WHERE key IN (
        SELECT key FROM rate_limits WHERE count < max_count ORDER BY last_hit
        LIMIT GREATEST((SELECT count(*) FROM rate_limits) - ${maxKeys - slack}, 0))`.execute(db);
  }
  /** One cleanup at a time, whoever asks (the timer or a burst of hits); hits that came while
   *  it ran start the next one at once when they are a tenth of the bound already. */
  let running: Promise<void> | null = null;
  let hitsSinceCleanup = 0;
  const slack = Math.ceil(maxKeys / 10);
  const cleanupAfterHits = Math.max(1, slack);
  function cleanupOnce(): Promise<void> {
    running ??= cleanup()
      .catch(() => {})
      .finally(() => {
        running = null;
        if (hitsSinceCleanup >= cleanupAfterHits) void cleanupOnce();
      });
    return running;
  }
  const timer = setInterval(() => void cleanupOnce(), cleanupEveryMs);
  timer.unref();

  const limiter = {
    async check(key: string, limit: Limit) {
      const t = Math.floor(clock());
      const w = await open(key, t);
      if (w && w.count >= limit.max) throw refusal(w.expires_at, t);
    },
    async hit(key: string, limit: Limit) {
      await upsert(db, key, limit, Math.floor(clock()));
    },
    consume: (key: string, limit: Limit) => consumeAll([[key, limit]]),
    consumeAll,
    async refund(key: string) {
      await db
        .updateTable("rate_limits")
        .set((eb) => ({ count: eb("count", "-", 1) }))
        .where("key", "=", key)
        .where("expires_at", ">", clock())
        .where("count", ">", 0)
        .execute();
    },
    async count(key: string) {
      return (await open(key))?.count ?? 0;
    },
    async reset(key: string) {
      await db.deleteFrom("rate_limits").where("key", "=", key).execute();
    },
    /** Removes what has expired now, and the coldest rows past the bound (the timer does it
     *  every minute). */
    cleanup: cleanupOnce,
    /** Rows held now (tests). */
    async size() {
      const r = await db
        .selectFrom("rate_limits")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    close() {
      clearInterval(timer);
    },
  };
  return limiter satisfies RateLimiter;
}
export type DbRateLimiter = ReturnType<typeof createDbRateLimiter>;
