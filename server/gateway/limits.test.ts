import { describe, expect, it } from "vitest";
import { acceptEnv, acceptTerm, addressKey, clampSize, Coalescer, ENV_LIMITS, RecentBuckets, TokenBucket } from "./limits.ts";

describe("TokenBucket", () => {
  it("allows a burst, then the refill rate", () => {
    let t = 0;
    const b = new TokenBucket(3, 2, () => t);
    expect([b.take(), b.take(), b.take(), b.take()]).toEqual([true, true, true, false]);
    expect(b.waitMs()).toBe(500);
    t = 499;
    expect(b.take()).toBe(false);
    t = 1000;
    expect([b.take(), b.take(), b.take()]).toEqual([true, true, false]); // 2 per second
    t = 100_000;
    expect([b.take(), b.take(), b.take(), b.take()]).toEqual([true, true, true, false]);
  });
});

describe("RecentBuckets", () => {
  it("a key that spent its budget stays refused while 20,000 others come, as long as it keeps trying", () => {
    const t = 0;
    const opens = new RecentBuckets(10, 0.5, 10_000, () => t);
    for (let i = 0; i < 10; i++) expect(opens.take("attacker")).toBe(true);
    expect(opens.take("attacker")).toBe(false);
    for (let i = 0; i < 20_000; i++) {
      opens.take(`user-${i}`);
      if (i % 1000 === 0) expect(opens.take("attacker"), `after ${i} others`).toBe(false);
    }
    expect(opens.size).toBe(10_000);
    // The others' budgets were not all forgotten either: the most recent are still counted.
    for (let i = 0; i < 9; i++) opens.take("user-19999");
    expect(opens.take("user-19999")).toBe(false);
  });

  it("forgets only the least recently used key past the bound", () => {
    const opens = new RecentBuckets(1, 0, 2, () => 0);
    expect([opens.take("a"), opens.take("b"), opens.take("a")]).toEqual([true, true, false]);
    opens.take("c"); // b is the least recently used now
    expect(opens.size).toBe(2);
    expect(opens.take("a")).toBe(false);
    expect(opens.take("b")).toBe(true); // forgotten: a full bucket again
  });
});

describe("pty limits", () => {
  it("clamps sizes to 1..1000 and keeps only plain TERM names", () => {
    expect([clampSize(2 ** 32 - 1, 80), clampSize(0, 80), clampSize(-5, 24), clampSize(NaN, 24), clampSize(132.7, 80), clampSize("9" as unknown, 80)]).toEqual([
      1000, 80, 24, 24, 132, 80,
    ]);
    expect(acceptTerm("xterm-256color")).toBe("xterm-256color");
    expect(acceptTerm("screen.xterm-256color")).toBe("screen.xterm-256color");
    expect(acceptTerm("x".repeat(30_000))).toBe("xterm");
    expect(acceptTerm("xterm\u001b]0;pwned\u0007")).toBe("xterm");
    expect(acceptTerm("")).toBe("xterm");
  });
});

describe("Coalescer", () => {
  it("applies the last value of a burst once, and never drops the last one", async () => {
    const applied: number[] = [];
    const c = new Coalescer<number>((v) => applied.push(v), new TokenBucket(1, 20), 20);
    for (let i = 0; i < 100; i++) c.push(i);
    await new Promise((r) => setTimeout(r, 60));
    expect(applied).toEqual([99]);
    c.push(1);
    c.push(2); // the bucket is empty: applied after the refill (50 ms), still the last value
    await new Promise((r) => setTimeout(r, 120));
    expect(applied).toEqual([99, 2]);
    c.stop();
    c.push(3);
    await new Promise((r) => setTimeout(r, 60));
    expect(applied).toEqual([99, 2]);
  });
});

describe("acceptEnv", () => {
  it("takes allowed names only, bounded in count, name length and total size", () => {
    const env: Record<string, string> = {};
    expect(acceptEnv(env, "EVIL", "1")).toBe(false);
    expect(acceptEnv(env, "LANG", "C.UTF-8")).toBe(true);
    expect(acceptEnv(env, `LC_${"A".repeat(ENV_LIMITS.keyLength)}`, "x")).toBe(false);
    expect(acceptEnv(env, "LC_ALL", "a\0b")).toBe(false);
    expect(acceptEnv(env, "LC_ALL", "x".repeat(257))).toBe(false);
    for (let i = 0; i < 1000; i++) acceptEnv(env, `LC_${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + (Math.floor(i / 26) % 26))}Z`, "v");
    expect(Object.keys(env)).toHaveLength(ENV_LIMITS.entries);
    expect(acceptEnv(env, "LANG", "en_GB.UTF-8")).toBe(true); // replacing one is fine
    const big: Record<string, string> = {};
    for (let i = 0; i < 30; i++) acceptEnv(big, `LC_${String.fromCharCode(65 + (i % 26))}${i >= 26 ? "B" : ""}`, "v".repeat(250));
    const total = Object.entries(big).reduce((n, [k, v]) => n + k.length + v.length, 0);
    expect(total).toBeLessThanOrEqual(ENV_LIMITS.totalBytes);
  });
});

describe("addressKey", () => {
  it("counts IPv4 (also IPv4-mapped) by address and IPv6 by /64", () => {
    expect(addressKey("127.0.0.2")).toBe("127.0.0.2");
    expect(addressKey("::ffff:10.1.2.3")).toBe("10.1.2.3");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey(undefined)).toBe("unknown");
  });
});
