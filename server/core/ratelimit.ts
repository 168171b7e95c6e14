// Fixed-window rate limits. Two stores behind one interface (`RateLimiter`), chosen by the
// platform (server/platform.ts): this module's counters in memory, enough for one process (the
// SQLite setup: one process per database file), and ratelimit-db.ts's counters in PostgreSQL,
// shared by every replica of one installation. Callers await either the same way.
//
// Memory is bounded: an entry lives for its window only (it is dropped when read after that),
// and the map keeps at most `maxKeys` entries in least-recently-used order, so a flood of new
// keys (random user names, spoofed addresses) evicts the coldest counters (amortised O(1) per
// call) instead of growing the map or scanning it. Counters being hammered stay the most recent.
import { isIPv6 } from "node:net";
import { tooManyRequests } from "./errors.ts";

export interface Limit {
  max: number;
  windowSeconds: number;
}

/** Enough for every live counter of a busy site; about 100 bytes each. */
export const MAX_RATE_LIMIT_KEYS = 100_000;

/** What every store does; each method refuses by throwing tooManyRequests (a 429). */
export interface RateLimiter {
  /** Throws 429 when the key has used up its window. Never creates an entry. */
  check(key: string, limit: Limit): Promise<void>;
  /** Counts one hit, whatever the count. */
  hit(key: string, limit: Limit): Promise<void>;
  /** check + hit in one: for actions limited whether they succeed or not. */
  consume(key: string, limit: Limit): Promise<void>;
  /**
   * Checks every key, then counts on every key, as one step: parallel requests cannot all pass a
   * check made before any of them counted, and a refusal by one limit does not use up the others.
   */
  consumeAll(entries: [key: string, limit: Limit][]): Promise<void>;
  /** Gives back one hit counted by consume (the action turned out not to count). */
  refund(key: string): Promise<void>;
  /** Hits counted in the key's open window (0 when none). */
  count(key: string): Promise<number>;
  reset(key: string): Promise<void>;
}

/** The in-memory store. Each method does all its work before its first await (it has none), so
 *  consumeAll is one synchronous step: callers that await afterwards (a password hash) cannot be
 *  overtaken by parallel requests. */
export function createRateLimiter(clock: () => number = Date.now, maxKeys = MAX_RATE_LIMIT_KEYS) {
  // Map iteration order is insertion order: re-inserting on use keeps the LRU entry first.
  const windows = new Map<string, { expires: number; count: number }>();

  /** The key's window if it is still open (moved to the most-recent end), else nothing. */
  function open(key: string, t: number) {
    const w = windows.get(key);
    if (!w) return undefined;
    windows.delete(key);
    if (t >= w.expires) return undefined;
    windows.set(key, w);
    return w;
  }

  /**
   * Drops the least recently used tenth in one pass. One key at a time would restart Map
   * iteration from the front each time, which walks over every deleted slot (seconds per
   * 100k inserts); a batch pays for that walk once.
   */
  function evictColdest() {
    let n = windows.size - maxKeys + Math.ceil(maxKeys / 10);
    for (const key of windows.keys()) {
      if (n-- <= 0) break;
      windows.delete(key);
    }
  }

  function current(key: string, limit: Limit) {
    const t = clock();
    let w = open(key, t);
    if (!w) {
      w = { expires: t + limit.windowSeconds * 1000, count: 0 };
      windows.set(key, w);
      if (windows.size > maxKeys) evictColdest();
    }
    return w;
  }

  function refusal(key: string, limit: Limit) {
    const t = clock();
    const w = open(key, t);
    if (!w || w.count < limit.max) return null;
    return tooManyRequests(Math.max(Math.ceil((w.expires - t) / 1000), 1));
  }

  function check(key: string, limit: Limit) {
    const e = refusal(key, limit);
    if (e) throw e;
  }
  const hit = (key: string, limit: Limit) => void current(key, limit).count++;

  const limiter = {
    async check(key: string, limit: Limit) {
      check(key, limit);
    },
    async hit(key: string, limit: Limit) {
      hit(key, limit);
    },
    async consume(key: string, limit: Limit) {
      check(key, limit);
      hit(key, limit);
    },
    async consumeAll(entries: [key: string, limit: Limit][]) {
      for (const [key, limit] of entries) check(key, limit);
      for (const [key, limit] of entries) hit(key, limit);
    },
    async refund(key: string) {
      const w = open(key, clock());
      if (w && w.count > 0) w.count--;
    },
    async count(key: string): Promise<number> {
      return open(key, clock())?.count ?? 0;
    },
    async reset(key: string) {
      windows.delete(key);
    },
    /** Entries held now (tests and metrics). */
    get size() {
      return windows.size;
    },
  };
  return limiter satisfies RateLimiter;
}

/**
 * The part of a client address that rate limits key on. An IPv6 client usually holds a whole
 * /64 (one subnet per home or server), so counting per /128 would give it 2^64 fresh budgets;
 * IPv4 addresses are used whole.
 */
export function addressKey(ip: string): string {
  const plain = ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "").replace(/%.*$/, "");
  if (!isIPv6(plain)) return plain;
  const [head = "", tail = ""] = plain.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = plain.includes("::") ? (tail ? tail.split(":") : []) : [];
  const groups = plain.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
