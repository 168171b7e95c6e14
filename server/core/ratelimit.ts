// Fixed-window counters kept in memory. Enough for one process; a shared store can replace
// this module without touching its callers.
import { tooManyRequests } from "./errors.ts";

export interface Limit {
  max: number;
  windowSeconds: number;
}

export function createRateLimiter(clock: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();

  function current(key: string, limit: Limit) {
    const t = clock();
    let w = windows.get(key);
    if (!w || t - w.start >= limit.windowSeconds * 1000) {
      w = { start: t, count: 0 };
      windows.set(key, w);
    }
    if (windows.size > 50_000) prune(t);
    return w;
  }

  function prune(t: number) {
    for (const [k, w] of windows) if (t - w.start > 24 * 3600 * 1000) windows.delete(k);
  }

  return {
    /** Throws 429 when the key has used up its window. */
    check(key: string, limit: Limit) {
      const w = current(key, limit);
      if (w.count >= limit.max) {
        const retry = Math.ceil((w.start + limit.windowSeconds * 1000 - clock()) / 1000);
        throw tooManyRequests(Math.max(retry, 1));
      }
    },
    hit(key: string, limit: Limit) {
      current(key, limit).count++;
    },
    /** check + hit in one: for actions limited whether they succeed or not. */
    consume(key: string, limit: Limit) {
      this.check(key, limit);
      this.hit(key, limit);
    },
    reset(key: string) {
      windows.delete(key);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
