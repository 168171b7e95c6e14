import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashToken, randomToken, safeEqual } from "./secrets.ts";

describe("secrets", () => {
  it("makes URL-safe random tokens of the requested strength", () => {
    const t = randomToken();
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes
    expect(Buffer.from(t, "base64url")).toHaveLength(32);
    expect(randomToken(48)).toMatch(/^[A-Za-z0-9_-]{64}$/);
    const many = new Set(Array.from({ length: 1000 }, () => randomToken()));
    expect(many.size).toBe(1000);
  });

  it("stores tokens as their SHA-256 in hex, deterministically", () => {
    const t = "some-token";
    expect(hashToken(t)).toBe(createHash("sha256").update(t).digest("hex"));
    expect(hashToken(t)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(t)).toBe(hashToken(t));
    expect(hashToken(t)).not.toBe(hashToken(`${t}x`));
    expect(hashToken(t)).not.toContain(t);
  });

  it("compares in constant time, including different lengths and non-ASCII", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
    expect(safeEqual("é", "e\u0301")).toBe(false);
    expect(safeEqual("ü", "ü")).toBe(true);
  });
});
