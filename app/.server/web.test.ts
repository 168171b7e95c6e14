import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { expiresSoon, tokenExpiry } from "./web.ts";

describe("access token expiry as the web reads it", () => {
  it("reads exp (seconds) from the payload without verifying", async () => {
    const token = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setExpirationTime(1_900_000_000).sign(new Uint8Array(32));
    expect(tokenExpiry(token)).toBe(1_900_000_000);
  });

  it("counts an unreadable token as not expiring", () => {
    expect(tokenExpiry("not-a-jwt")).toBe(Number.POSITIVE_INFINITY);
    expect(expiresSoon(tokenExpiry("not-a-jwt"))).toBe(false);
  });

  it("is expiring soon when less than 5 minutes are left", () => {
    const now = 1_000_000;
    expect(expiresSoon(now + 299, now)).toBe(true);
    expect(expiresSoon(now + 300, now)).toBe(false);
    expect(expiresSoon(now - 10, now)).toBe(true);
  });
});
