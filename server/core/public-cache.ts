// The public reads (catalogue, home figures, leaderboard pages), the same for every caller:
// kept in process, so a page costs one key lookup instead of the queries behind it, for
// visitors and signed-in players alike (an entry is never stale, see below, so a player sees
// their own solve on the board at once).
// An entry serves while it is younger than the freshness the API promises (FRESH_SECONDS in
// server/api/player-routes.ts) and nothing it could show has changed: each read compares the
// database's change counter (score_counters 'changes', bumped by triggers on solves, users,
// challenges and hidden challenges: server/db/migrations/0008_scores.ts) with the one the entry
// was made at. So a solve or a content reload (admin reload, hide, show) is seen at once, by
// every replica on the same database, whoever wrote it. `invalidate()` drops everything now
// (for a replica told by another, or a test).
import type { Db } from "#server/db/index.ts";

export interface PublicCache {
  /** `load()`'s value, from the cache while it is fresh and nothing changed. */
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Forgets every entry. */
  invalidate(): void;
  /** The database's change counter now: anything cached at another value may be out of date
   *  (server/http/page-cache.ts keys visitors' whole pages on it too). */
  version(): Promise<number>;
}

interface Entry {
  version: number;
  until: number;
  value: Promise<unknown>;
}

export function createPublicCache({ db, freshSeconds, maxEntries = 2000 }: { db: Db; freshSeconds: number; maxEntries?: number }): PublicCache {
  const entries = new Map<string, Entry>();

  async function version(): Promise<number> {
    const r = await db.selectFrom("score_counters").select("n").where("name", "=", "changes").executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  return {
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const v = await version();
      const hit = entries.get(key);
      if (hit && hit.version === v && hit.until > Date.now()) return hit.value as Promise<T>;
      // Searches make many keys: past the cap the oldest entry goes (a Map keeps insertion order).
      if (!hit && entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      const value = load();
      const entry: Entry = { version: v, until: Date.now() + freshSeconds * 1000, value };
      entries.set(key, entry);
      // A failed load is not kept: the next caller tries again.
      value.catch(() => entries.get(key) === entry && entries.delete(key));
      return value;
    },
    invalidate() {
      entries.clear();
    },
    version,
  };
}
