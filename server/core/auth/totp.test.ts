import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { matchTotp, newTotpSecret, TOTP_PERIOD, totpCode, totpUri } from "./totp.ts";

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", 8-digit codes; ours are the last 6.
const RFC_SECRET = OTPAuth.Secret.fromLatin1("12345678901234567890").base32;
const RFC_VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
];

const STEP = TOTP_PERIOD * 1000;
const T = 1_700_000_010_000; // 10 s into a step
const stepOf = (ms: number) => Math.floor(ms / STEP);

describe("TOTP", () => {
  it("computes RFC 6238 codes (SHA-1, 30 s, 6 digits)", () => {
    expect(TOTP_PERIOD).toBe(30);
    for (const [seconds, code8] of RFC_VECTORS) {
      expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(code8.slice(-6));
    }
  });

  it("makes 160-bit base32 secrets, each different", () => {
    const s = newTotpSecret();
    expect(s).toMatch(/^[A-Z2-7]{32}$/);
    expect(OTPAuth.Secret.fromBase32(s).bytes).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(s);
  });

  it("writes an otpauth URI an authenticator app reads back", () => {
    const s = newTotpSecret();
    const uri = totpUri(s, "ada_l");
    expect(uri).toMatch(/^otpauth:\/\/totp\/faultline:ada_l\?/);
    const parsed = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
    expect(parsed.secret.base32).toBe(s);
    expect(parsed).toMatchObject({ issuer: "faultline", label: "ada_l", digits: 6, period: 30, algorithm: "SHA1" });
    expect(parsed.generate({ timestamp: T })).toBe(totpCode(s, T));
  });

  it("matches the current step and one step either way, returning the code's step", () => {
    const s = newTotpSecret();
    for (const d of [-1, 0, 1]) {
      expect(matchTotp(s, totpCode(s, T + d * STEP), T)).toBe(stepOf(T) + d);
    }
  });

  it("refuses two steps away, other secrets and anything but 6 digits", () => {
    const s = newTotpSecret();
    expect(matchTotp(s, totpCode(s, T - 2 * STEP), T)).toBeNull();
    expect(matchTotp(s, totpCode(s, T + 2 * STEP), T)).toBeNull();
    const other = newTotpSecret();
    const code = totpCode(other, T);
    // A different secret's code could collide by chance only with the few valid codes.
    const valid = new Set([-1, 0, 1].map((d) => totpCode(s, T + d * STEP)));
    if (!valid.has(code)) expect(matchTotp(s, code, T)).toBeNull();
    const good = totpCode(s, T);
    for (const bad of [good.slice(1), `${good}0`, ` ${good}`, good.replace(/\d/, "x"), "", "１２３４５６"]) {
      expect(matchTotp(s, bad, T)).toBeNull();
    }
  });
});
