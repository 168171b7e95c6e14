import { describe, expect, it } from "vitest";
import { ApiError } from "./errors.ts";
import { createRateLimiter } from "./ratelimit.ts";

const LIMIT = { max: 3, windowSeconds: 60 };

function limiterAt(start = 1_000_000) {
  let now = start;
  return { limiter: createRateLimiter(() => now), advance: (ms: number) => (now += ms) };
}

/** The 429 `fn` throws. */
function refused(fn: () => void): ApiError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error("not refused");
}

describe("rate limiter", () => {
  it("allows max hits in a window, then refuses with 429 and the seconds left", () => {
    const { limiter, advance } = limiterAt();
    for (let i = 0; i < 3; i++) limiter.consume("k", LIMIT);
    advance(15_500);
    const e = refused(() => limiter.check("k", LIMIT));
    expect(e.status).toBe(429);
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
