// Signature checks are remembered per input (server/core/auth/verified-memo.ts) so a token or cookie
// sent on every request is verified once. What must still hold on every use, remembered or not:
// an access token stops at its expiry and the moment its account is disabled, a token changed in
// any character is refused, and a session cookie names no one once its session has ended or
// when its signature is not ours.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { verifiedMemo } from "#server/core/auth/verified-memo.ts";
import { createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";
import { expectError } from "./assertions.ts";

describe("verifiedMemo", () => {
  it("keeps at most its bound, dropping the oldest, and never an input longer than its limit", () => {
    const m = verifiedMemo<number>(2, 10);
    m.remember("a", 1);
    m.remember("b", 2);
    m.remember("c", 3);
    expect([m.get("a"), m.get("b"), m.get("c")]).toEqual([undefined, 2, 3]);
    m.remember("x".repeat(11), 4);
    expect(m.get("x".repeat(11))).toBeUndefined();
  });
});

describe.each(DATABASES)("remembered signature checks on %s", (kind) => {
  let t: TestPlatform;
  let admin: string;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { env: { RUNTIME: "none" } });
    const a = await t.registerVerified();
    await t.platform.accounts.setAdmin(a.username, true);
    admin = (await t.login(a)).access_token;
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
  });

  it("an access token accepted before is refused once its account is disabled", async () => {
    const u = await t.registerVerified();
    const { access_token, user } = await t.login(u);
    expect((await t.call("GET", "/users/me", { token: access_token })).status).toBe(200);
    expect((await t.call("GET", "/users/me", { token: access_token })).status).toBe(200);
    expect((await t.call("POST", `/admin/users/${user.id}/disable`, { token: admin })).status).toBe(200);
    expectError(await t.call("GET", "/users/me", { token: access_token }), 401, "Invalid or expired token");
  });

  it("an access token changed in one character is refused after the original was accepted", async () => {
    const { access_token } = await t.login(await t.registerVerified());
    expect((await t.call("GET", "/users/me", { token: access_token })).status).toBe(200);
    // A character of the signature's start (its last character carries 2 unused bits: a change
    // there can decode to the same signature), and one of the payload.
    const [header, payload, signature] = access_token.split(".") as [string, string, string];
    const other = (c: string) => (c === "A" ? "B" : "A");
    const forgeries = [
      `${header}.${payload}.${other(signature[0]!)}${signature.slice(1)}`,
      `${header}.${payload.slice(0, 5)}${other(payload[5]!)}${payload.slice(6)}.${signature}`,
    ];
    for (const forged of forgeries) {
      expectError(await t.call("GET", "/users/me", { token: forged }), 401, "Invalid or expired token");
    }
  });

  it("an access token accepted before is refused once it has expired", async () => {
    const { access_token } = await t.login(await t.registerVerified());
    expect((await t.call("GET", "/users/me", { token: access_token })).status).toBe(200);
    // 15 minutes and a second later (only the clock: timers and the database carry on).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + (15 * 60 + 1) * 1000 });
    try {
      expectError(await t.call("GET", "/users/me", { token: access_token }), 401, "Invalid or expired token");
    } finally {
      vi.useRealTimers();
    }
  });

  it("a session cookie read before names no one once the session ended, or with another signature", async () => {
    const u = await t.registerVerified();
    const { user } = await t.login(u);
    const ws = t.platform.webSessions;
    const id = await ws.create({ tokens: {} }, { userId: user.id });
    const header = (await ws.cookie.serialize(id)).split(";")[0]!;
    expect(await ws.fromCookieHeader(header)).toEqual({ key: ws.keyOf(id), userId: user.id });
    expect(await ws.fromCookieHeader(header)).toEqual({ key: ws.keyOf(id), userId: user.id });
    // The same id under a signature that is not ours.
    const [name, value] = header.split("=") as [string, string];
    const decoded = decodeURIComponent(value);
    const forged = `${name}=${encodeURIComponent(decoded.slice(0, -2) + (decoded.at(-2) === "A" ? "BB" : "AA"))}`;
    expect(await ws.fromCookieHeader(forged)).toBeNull();
    await ws.destroy(id);
    expect(await ws.fromCookieHeader(header)).toBeNull();
  });
});
