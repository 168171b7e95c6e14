// Starting an OAuth sign-in needs no account and stores a state row: starts are
// limited per address, so a burst from one address stops writing rows, and expired states go.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestPlatform, DATABASES, freshIp, type TestPlatform } from "../support/platform.ts";
import { startOAuthProvider, type OAuthProvider } from "../support/oauth-provider.ts";
import { expectError } from "./assertions.ts";

describe.each(DATABASES)("OAuth starts on %s", (kind) => {
  let t: TestPlatform;
  let provider: OAuthProvider;
  beforeAll(async () => {
    provider = await startOAuthProvider();
    t = await createTestPlatform(kind, { env: { ...provider.env, PUBLIC_URL: "http://127.0.0.1:3000" } });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  const states = async () =>
    Number(
      (
        await t.platform.db
          .selectFrom("oauth_states")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("a burst of anonymous starts from one address stops writing rows at the limit", async () => {
    const ip = freshIp();
    const before = await states();
    const answers = [];
    for (let i = 0; i < 60; i++) answers.push(await t.call("GET", `/auth/oauth/${i % 2 ? "github" : "google"}/login`, { ip }));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(30);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(30);
    expectError(refused[0]!, 429, /^Too many attempts\. Try again in \d+ seconds\.$/);
    expect((await states()) - before).toBe(30);
    // Other addresses start as usual; an IPv6 client is one address per /64.
    expect((await t.call("GET", "/auth/oauth/github/login", { ip: freshIp() })).status).toBe(200);
    for (let i = 0; i < 30; i++) await t.call("GET", "/auth/oauth/github/login", { ip: `2001:db8:aa:${kind === "sqlite" ? 1 : 2}::${(i + 1).toString(16)}` });
    expectError(await t.call("GET", "/auth/oauth/github/login", { ip: `2001:db8:aa:${kind === "sqlite" ? 1 : 2}:ffff::1` }), 429);
  });

  it("removes expired states as new starts come", async () => {
    expect((await t.call("GET", "/auth/oauth/github/login", { ip: freshIp() })).status).toBe(200);
    expect(await states()).toBeGreaterThan(0);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 11 * 60 * 1000); // states live 10 minutes
      expect((await t.call("GET", "/auth/oauth/github/login", { ip: freshIp() })).status).toBe(200);
      expect(await states()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
