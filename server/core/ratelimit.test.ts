import { describe, expect, it } from "vitest";
import { DomainError } from "./errors.ts";
import { addressKey, createRateLimiter } from "./ratelimit.ts";

const LIMIT = { max: 3, windowSeconds: 60 };

function limiterAt(start = 1_000_000) {
  let now = start;
  return { limiter: createRateLimiter(() => now), advance: (ms: number) => (now += ms) };
}

/** The 429 `fn` throws. */
function refused(fn: () => void): DomainError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    return e as DomainError;
  }
  throw new Error("not refused");
}

describe("rate limiter", () => {
  it("allows max hits in a window, then refuses with 429 and the seconds left", () => {
    const { limiter, advance } = limiterAt();
    for (let i = 0; i < 3; i++) limiter.consume("k", LIMIT);
    advance(15_500);
    const e = refused(() => limiter.check("k", LIMIT));
    expect(e.kind).toBe("rate_limited"); // the API's 429
    expect(e.extra).toEqual({ retry_after: 45 }); // 44.5 s rounded up
    expect(e.detail).toBe("Too many attempts. Try again in 45 seconds.");
  });

  it("opens again when the window has passed, and not a moment before", () => {
    const { limiter, advance } = limiterAt();
    for (let i = 0; i < 3; i++) limiter.hit("k", LIMIT);
    advance(59_999);
    expect(refused(() => limiter.check("k", LIMIT)).extra).toEqual({ retry_after: 1 });
    advance(1);
    expect(() => limiter.check("k", LIMIT)).not.toThrow();
    // A fresh window: max again.
    for (let i = 0; i < 3; i++) limiter.consume("k", LIMIT);
    expect(() => limiter.check("k", LIMIT)).toThrow();
  });

  it("check alone never counts; consume counts even when the action then succeeds", () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 10; i++) limiter.check("k", LIMIT);
    limiter.consume("k", LIMIT);
    limiter.consume("k", LIMIT);
    limiter.consume("k", LIMIT);
    expect(() => limiter.consume("k", LIMIT)).toThrow();
  });

  it("keeps keys apart and forgets a key on reset", () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 3; i++) limiter.hit("a", LIMIT);
    expect(() => limiter.check("a", LIMIT)).toThrow();
    expect(() => limiter.check("b", LIMIT)).not.toThrow();
    limiter.reset("a");
    expect(() => limiter.check("a", LIMIT)).not.toThrow();
  });

  it("never says to retry in less than a second", () => {
    const { limiter, advance } = limiterAt();
    for (let i = 0; i < 3; i++) limiter.hit("k", LIMIT);
    advance(59_999.9);
    expect(refused(() => limiter.check("k", LIMIT)).extra).toEqual({ retry_after: 1 });
  });
});

describe("rate limiter memory (review L2)", () => {
  it("keeps at most maxKeys entries under a flood of distinct keys, evicting the coldest", () => {
    const { limiter } = limiterAt();
    const started = performance.now();
    const bounded = createRateLimiter(() => 1_000_000, 1000);
    for (let i = 0; i < 200_000; i++) {
      bounded.hit(`flood:${i}`, LIMIT);
      // A counter in use keeps its place: the attacker's own address is never evicted by the flood.
      if (i % 100 === 0) bounded.hit("hot", { max: 1_000_000, windowSeconds: 60 });
    }
    expect(bounded.size).toBeLessThanOrEqual(1000);
    expect(bounded.size).toBeGreaterThanOrEqual(900);
    expect(bounded.count("hot")).toBe(2000);
    expect(bounded.count("flood:0")).toBe(0);
    expect(bounded.count("flood:199999")).toBe(1);
    // The default bound applies without asking for it.
    for (let i = 0; i < 200_000; i++) limiter.hit(`k${i}`, LIMIT);
    expect(limiter.size).toBeLessThanOrEqual(100_000);
    // Generous: an O(n) scan per call (the old prune above 50k keys) takes minutes here.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("check never creates an entry, and an entry is dropped once its window is over", () => {
    const { limiter, advance } = limiterAt();
    for (let i = 0; i < 1000; i++) limiter.check(`unknown-user-${i}`, LIMIT);
    expect(limiter.size).toBe(0);
    limiter.hit("k", LIMIT);
    expect(limiter.size).toBe(1);
    advance(60_000);
    expect(limiter.count("k")).toBe(0);
    expect(limiter.size).toBe(0);
  });

  it("consumeAll checks every key before counting any; refund gives one back", () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 3; i++) limiter.hit("full", LIMIT);
    expect(() => limiter.consumeAll([["free", LIMIT], ["full", LIMIT]])).toThrow();
    expect(limiter.count("free")).toBe(0);
    limiter.consumeAll([["a", LIMIT], ["b", LIMIT]]);
    limiter.refund("a");
    expect(limiter.count("a")).toBe(0);
    expect(limiter.count("b")).toBe(1);
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
