import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase, type Db } from "#server/db/index.ts";
import { createDatabase } from "../../tests/support/postgres.ts";
import { DomainError } from "./errors.ts";
import { addressKey, createRateLimiter, type RateLimiter } from "./ratelimit.ts";
import { createDbRateLimiter, type DbRateLimiter } from "./ratelimit-db.ts";

const LIMIT = { max: 3, windowSeconds: 60 };

/** The 429 `fn` rejects with. */
async function refused(fn: () => Promise<void>): Promise<DomainError> {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    return e as DomainError;
  }
  throw new Error("not refused");
}

// The same rules from both stores: in memory (one process) and in PostgreSQL (every replica).
let pgDb: Db;
const dbLimiters: DbRateLimiter[] = [];
beforeAll(async () => {
  pgDb = await openDatabase({ kind: "postgres", url: await createDatabase(inject("postgresUrl")) });
});
afterAll(async () => {
  for (const l of dbLimiters) l.close();
  await pgDb?.destroy();
});

let keySeq = 0;
const stores: [name: string, make: (clock: () => number) => RateLimiter][] = [
  ["memory", (clock) => createRateLimiter(clock)],
  [
    "postgres",
    (clock) => {
      const l = createDbRateLimiter(pgDb, { clock });
      dbLimiters.push(l);
      // Each test's keys apart: the stores share one table.
      const p = `t${++keySeq}:`;
      return {
        check: (k, lim) => l.check(p + k, lim),
        hit: (k, lim) => l.hit(p + k, lim),
        consume: (k, lim) => l.consume(p + k, lim),
        consumeAll: (e) => l.consumeAll(e.map(([k, lim]) => [p + k, lim])),
        refund: (k) => l.refund(p + k),
        count: (k) => l.count(p + k),
        reset: (k) => l.reset(p + k),
      };
    },
  ],
];

describe.each(stores)("rate limiter (%s)", (_name, make) => {
  function limiterAt(start = 1_000_000) {
    let now = start;
    return { limiter: make(() => now), advance: (ms: number) => (now += ms) };
  }

  it("allows max hits in a window, then refuses with 429 and the seconds left", async () => {
    const { limiter, advance } = limiterAt();
    for (let i = 0; i < 3; i++) await limiter.consume("k", LIMIT);
    advance(15_500);
    const e = await refused(() => limiter.check("k", LIMIT));
    expect(e.kind).toBe("rate_limited"); // the API's 429
    expect(e.extra).toEqual({ retry_after: 45 }); // 44.5 s rounded up
    expect(e.detail).toBe("Too many attempts. Try again in 45 seconds.");
    expect((await refused(() => limiter.consume("k", LIMIT))).extra).toEqual({ retry_after: 45 });
  });

  it("opens again when the window has passed, and not a moment before", async () => {
    const { limiter, advance } = limiterAt();
    for (let i = 0; i < 3; i++) await limiter.hit("k", LIMIT);
    advance(59_999);
    expect((await refused(() => limiter.check("k", LIMIT))).extra).toEqual({ retry_after: 1 });
    advance(1);
    await limiter.check("k", LIMIT);
    // A fresh window: max again.
    for (let i = 0; i < 3; i++) await limiter.consume("k", LIMIT);
    await expect(limiter.check("k", LIMIT)).rejects.toThrow();
  });

  it("check alone never counts; consume counts even when the action then succeeds; a refused consume counts nothing", async () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 10; i++) await limiter.check("k", LIMIT);
    await limiter.consume("k", LIMIT);
    await limiter.consume("k", LIMIT);
    await limiter.consume("k", LIMIT);
    await expect(limiter.consume("k", LIMIT)).rejects.toThrow();
    expect(await limiter.count("k")).toBe(3);
  });

  it("keeps keys apart and forgets a key on reset", async () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 3; i++) await limiter.hit("a", LIMIT);
    await expect(limiter.check("a", LIMIT)).rejects.toThrow();
    await limiter.check("b", LIMIT);
    await limiter.reset("a");
    await limiter.check("a", LIMIT);
  });

  it("never says to retry in less than a second", async () => {
    const { limiter, advance } = limiterAt();
    for (let i = 0; i < 3; i++) await limiter.hit("k", LIMIT);
    advance(59_999.9);
    expect((await refused(() => limiter.check("k", LIMIT))).extra).toEqual({ retry_after: 1 });
  });

  it("consumeAll checks every key before counting any; refund gives one back", async () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 3; i++) await limiter.hit("full", LIMIT);
    await expect(
      limiter.consumeAll([
        ["free", LIMIT],
        ["full", LIMIT],
      ]),
    ).rejects.toThrow();
    await expect(
      limiter.consumeAll([
        ["full", LIMIT],
        ["free", LIMIT],
      ]),
    ).rejects.toThrow();
    expect(await limiter.count("free")).toBe(0);
    await limiter.consumeAll([
      ["a", LIMIT],
      ["b", LIMIT],
    ]);
    await limiter.refund("a");
    expect(await limiter.count("a")).toBe(0);
    expect(await limiter.count("b")).toBe(1);
  });

  it("parallel consumes never pass more than max (what a flood spread over replicas gets)", async () => {
    const { limiter } = limiterAt();
    const limit = { max: 5, windowSeconds: 60 };
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, () =>
        limiter.consumeAll([
          ["p", limit],
          ["q", { max: 100, windowSeconds: 60 }],
        ]),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    expect(await limiter.count("p")).toBe(5);
    expect(await limiter.count("q")).toBe(5); // refusals by p counted nothing on q
  });
});

describe("rate limiter in PostgreSQL: bounded growth", () => {
  it("removes rows whose window has passed, and keeps at most maxKeys", async () => {
    let now = 5_000_000;
    const l = createDbRateLimiter(pgDb, { clock: () => now, maxKeys: 50, cleanupEveryMs: 3_600_000 });
    dbLimiters.push(l);
    await pgDb.deleteFrom("rate_limits").execute();
    for (let i = 0; i < 30; i++) await l.hit(`short:${i}`, { max: 2, windowSeconds: 10 });
    for (let i = 0; i < 80; i++) {
      now += 10;
      await l.hit(`long:${i}`, { max: 2, windowSeconds: 600 + i });
    }
    now += 11_000;
    await l.cleanup();
    await l.cleanup();
    expect(await l.size()).toBeLessThanOrEqual(50);
    expect(await l.size()).toBeGreaterThanOrEqual(40);
    expect(await l.count("short:0")).toBe(0);
    // The least recently hit went first; the latest stay.
    expect(await l.count("long:79")).toBe(1);
    expect(await l.count("long:0")).toBe(0);
  });

  it("a flood of fresh keys evicts the least recently hit, never a lock-out in force, and stays bounded between cleanups", async () => {
    let now = 9_000_000;
    // No timer during the test: only the flood itself may trigger cleanups.
    const l = createDbRateLimiter(pgDb, { clock: () => now, maxKeys: 50, cleanupEveryMs: 3_600_000 });
    dbLimiters.push(l);
    await pgDb.deleteFrom("rate_limits").execute();
    const lockout = { max: 3, windowSeconds: 600 };
    // An account locked out (its limit reached), and a counter in use below its limit, both
    // with windows ending before the flood's.
    for (let i = 0; i < 3; i++) await l.hit("login-account:victim", lockout);
    await l.hit("login-ip:old", { max: 10, windowSeconds: 600 });
    for (let i = 0; i < 300; i++) {
      now += 10;
      await l.hit(`login-user:fresh${i}`, { max: 5, windowSeconds: 900 });
    }
    await l.cleanup();
    await l.cleanup();
    expect(await l.size()).toBeLessThanOrEqual(50);
    // The lock-out holds: the flood bought no attempts back.
    await expect(l.check("login-account:victim", lockout)).rejects.toThrow();
    expect(await l.count("login-ip:old")).toBe(0);
    expect(await l.count("login-user:fresh299")).toBe(1);
  });

  it("grows no further than about a tenth past maxKeys between two timed cleanups", async () => {
    const l = createDbRateLimiter(pgDb, { maxKeys: 100, cleanupEveryMs: 3_600_000 });
    dbLimiters.push(l);
    await pgDb.deleteFrom("rate_limits").execute();
    let largest = 0;
    for (let i = 0; i < 600; i++) {
      await l.hit(`flood:${i}`, { max: 5, windowSeconds: 900 });
      if (i % 50 === 49) largest = Math.max(largest, await l.size());
    }
    await l.cleanup();
    expect(largest).toBeLessThanOrEqual(100 + 10 + 10);
  });
});

describe("rate limiter memory", () => {
  function limiterAt(start = 1_000_000) {
    let now = start;
    return { limiter: createRateLimiter(() => now), advance: (ms: number) => (now += ms) };
  }

  it("keeps at most maxKeys entries under a flood of distinct keys, evicting the coldest", async () => {
    const { limiter } = limiterAt();
    const started = performance.now();
    const bounded = createRateLimiter(() => 1_000_000, 1000);
    for (let i = 0; i < 200_000; i++) {
      await bounded.hit(`flood:${i}`, LIMIT);
      // A counter in use keeps its place: the attacker's own address is never evicted by the flood.
      if (i % 100 === 0) await bounded.hit("hot", { max: 1_000_000, windowSeconds: 60 });
    }
    expect(bounded.size).toBeLessThanOrEqual(1000);
    expect(bounded.size).toBeGreaterThanOrEqual(900);
    expect(await bounded.count("hot")).toBe(2000);
    expect(await bounded.count("flood:0")).toBe(0);
    expect(await bounded.count("flood:199999")).toBe(1);
    // The default bound applies without asking for it.
    for (let i = 0; i < 200_000; i++) await limiter.hit(`k${i}`, LIMIT);
    expect(limiter.size).toBeLessThanOrEqual(100_000);
    // Generous: an O(n) scan per call (the old prune above 50k keys) takes minutes here.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("check never creates an entry, and an entry is dropped once its window is over", async () => {
    const { limiter, advance } = limiterAt();
    for (let i = 0; i < 1000; i++) await limiter.check(`unknown-user-${i}`, LIMIT);
    expect(limiter.size).toBe(0);
    await limiter.hit("k", LIMIT);
    expect(limiter.size).toBe(1);
    advance(60_000);
    expect(await limiter.count("k")).toBe(0);
    expect(limiter.size).toBe(0);
  });
});

describe("addressKey", () => {
  it("keys IPv6 clients by their /64 and IPv4 clients by the whole address", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    const net = addressKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd");
    expect(net).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002::1")).toBe(net);
    expect(addressKey("2001:db8:1:2::ffff")).toBe(net);
    expect(addressKey("2001:db8:1:3::1")).not.toBe(net);
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });
});
