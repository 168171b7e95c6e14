// Password login, its rate limits, access tokens, refresh-token rotation and logout.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestPlatform, DATABASES, freshIp, type TestPlatform, type TestUser, unique } from "../support/platform.ts";
import { expectError, expectNoSecrets } from "./assertions.ts";

/** The JSON payload of a JWT, read the way the web reads it (no signature check). */
function jwtPayload(token: string): Record<string, unknown> {
  const [, payload] = token.split(".");
  return JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"));
}

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

describe.each(DATABASES)("login and tokens on %s", (kind) => {
  let t: TestPlatform;
  let alice: TestUser;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
    alice = await t.register();
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const login = (username_or_email: string, password: string, ip = freshIp()) => t.call("POST", "/auth/login", { body: { username_or_email, password }, ip });
  const refresh = (refresh_token: string) => t.call("POST", "/auth/refresh", { body: { refresh_token } });
  const validate = (token: string) => t.call("GET", "/auth/validate", { token });

  describe("POST /auth/login", () => {
    it("signs in by username and answers tokens and the user without secrets", async () => {
      const res = await login(alice.username, alice.password);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        mfa_required: false,
        token_type: "bearer",
        expires_in: 900,
        user: { username: alice.username, email: alice.email },
      });
      expect(typeof res.body.access_token).toBe("string");
      expect(typeof res.body.refresh_token).toBe("string");
      expect(res.body.refresh_token).not.toBe(res.body.access_token);
      expectNoSecrets(res.body.user, alice.password);
    });

    it("signs in by username or e-mail in any case, with surrounding spaces", async () => {
      for (const name of [alice.username.toUpperCase(), alice.email, alice.email.toUpperCase(), `  ${alice.username}  `]) {
        const res = await login(name, alice.password);
        expect(res.status, name).toBe(200);
        expect(res.body.user.username).toBe(alice.username);
      }
    });

    it("gives the same 401 for a wrong password and an unknown user", async () => {
      const wrong = await login(alice.username, "not the password");
      const unknown = await login(unique("ghost"), "not the password");
      const unknownEmail = await login(`${unique("ghost")}@example.test`, alice.password);
      expectError(wrong, 401, "Incorrect username or password");
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual(wrong.body);
      expect(unknownEmail.body).toEqual(wrong.body);
      // The password is case-sensitive.
      expectError(await login(alice.username, alice.password.toUpperCase()), 401, "Incorrect username or password");
    });

    it("refuses incomplete bodies with 400", async () => {
      expectError(await t.call("POST", "/auth/login", { body: { username_or_email: alice.username } }), 400, /password/);
      expectError(await t.call("POST", "/auth/login", { body: { password: "x" } }), 400, /username_or_email/);
      expectError(await t.call("POST", "/auth/login", { body: { username_or_email: "   ", password: "x" } }), 400, /username_or_email/);
      expectError(await t.call("POST", "/auth/login", { body: "username=a" }), 400, "The request body must be JSON");
    });
  });

  describe("failed-login limits", () => {
    it("stops an address after 5 failures on one account, while the owner signs in from elsewhere", async () => {
      const victim = await t.register();
      const attacker = freshIp();
      for (let i = 0; i < 5; i++) expectError(await login(victim.username, `guess ${i}`, attacker), 401);
      // Even the right password is refused from that address now, with a retry time.
      const limited = await login(victim.username, victim.password, attacker);
      expectError(limited, 429, /Too many attempts/);
      expect(limited.body.retry_after).toBeGreaterThan(0);
      expect(limited.body.retry_after).toBeLessThanOrEqual(15 * 60);
      expect(limited.headers.get("retry-after")).toBe(String(limited.body.retry_after));
      // No lock-out: the owner, elsewhere, signs in.
      expect((await login(victim.username, victim.password)).status).toBe(200);
      expect((await login(victim.email, victim.password)).status).toBe(200);
    });

    it("counts failures against the account however it is named (username or e-mail)", async () => {
      const victim = await t.register();
      const attacker = freshIp();
      const names = [victim.username, victim.email, victim.username.toUpperCase(), victim.email.toUpperCase(), victim.email];
      for (const [i, name] of names.entries()) expectError(await login(name, `guess ${i}`, attacker), 401);
      expectError(await login(victim.username, `guess again`, attacker), 429);
      expectError(await login(victim.email, victim.password, attacker), 429);
    });

    it("forgives the owner's typos once they sign in", async () => {
      const u = await t.register();
      const ip = freshIp();
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 4; i++) expectError(await login(u.username, `typo ${i}`, ip), 401);
        expect((await login(u.username, u.password, ip)).status).toBe(200);
      }
    });

    it("stops one address that tries many accounts", async () => {
      const bob = await t.register();
      const ip = freshIp();
      let first429 = -1;
      for (let i = 0; i < 31; i++) {
        const res = await login(unique("spray"), "password123", ip);
        if (res.status === 429) {
          first429 = i;
          break;
        }
        expectError(res, 401);
      }
      expect(first429).toBe(30);
      // Any account, even with the right password, from that address.
      expectError(await login(bob.username, bob.password, ip), 429);
      expect((await login(bob.username, bob.password)).status).toBe(200);
    });
  });

  describe("throttling that parallel requests and many addresses cannot beat", () => {
    it("counts before hashing: 30 parallel wrong passwords from one address get 5 looks, the rest 429", async () => {
      const victim = await t.register();
      const ip = freshIp();
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(victim.username, `guess ${i}`, ip)));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(25);
      for (const r of answers.filter((x) => x.status === 429)) expectError(r, 429, /^Too many attempts\. Try again in \d+ seconds\.$/);
    });

    it("limits one account to 20 failures an hour from new addresses, while the owner's known address still signs in", async () => {
      const victim = await t.register();
      const home = freshIp();
      expect((await login(victim.username, victim.password, home)).status).toBe(200);
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(victim.username, `guess ${i}`, freshIp())));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10);
      const wait = await login(victim.email, victim.password, freshIp());
      expectError(wait, 429);
      expect(wait.body.retry_after).toBeGreaterThan(15 * 60);
      expect(wait.body.retry_after).toBeLessThanOrEqual(60 * 60);
      // Not locked out: the owner signs in from where they signed in before.
      expect((await login(victim.username, victim.password, home)).status).toBe(200);
    });

    it("keys IPv6 clients by their /64: new addresses in the same subnet share one allowance", async () => {
      const victim = await t.register();
      const group = () => ((Math.random() * 0xffff) | 0).toString(16);
      const net = `2001:db8:${group()}:${group()}`;
      for (let i = 0; i < 5; i++) expectError(await login(victim.username, `guess ${i}`, `${net}::${i + 1}`), 401);
      expectError(await login(victim.username, victim.password, `${net}:ffff:ffff:ffff:ffff`), 429);
      expect((await login(victim.username, victim.password, `2001:db8:ffff:${group()}::1`)).status).toBe(200);
    });
  });

  describe("access tokens", () => {
    it("is a JWT whose exp, in seconds, is 15 minutes ahead, and validates to the user", async () => {
      const before = Math.floor(Date.now() / 1000);
      const { access_token } = await t.login(alice);
      const after = Math.floor(Date.now() / 1000);
      const payload = jwtPayload(access_token);
      expect(payload.exp).toBeGreaterThanOrEqual(before + 900);
      expect(payload.exp).toBeLessThanOrEqual(after + 900);
      expect(payload.sub).toBe(alice.user.id);

      const res = await validate(access_token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ username: alice.username, email: alice.email });
      expectNoSecrets(res.body, alice.password);
      expect((await t.call("GET", "/users/me", { token: access_token })).body.username).toBe(alice.username);
    });

    it("refuses a missing, garbage, forged or refresh token with 401", async () => {
      const { access_token, refresh_token } = await t.login(alice);
      expectError(await t.call("GET", "/auth/validate"), 401);
      for (const bad of ["garbage", "a.b.c", refresh_token, access_token.slice(0, -2)]) {
        expectError(await validate(bad), 401);
      }
      // Same signature, someone else's subject.
      const [h, p, s] = access_token.split(".");
      const forged = `${h}.${b64url({ ...JSON.parse(Buffer.from(p!, "base64url").toString()), sub: "someone-else" })}.${s}`;
      expectError(await validate(forged), 401);
      // Unsigned.
      expectError(await validate(`${b64url({ alg: "none", typ: "JWT" })}.${p}.`), 401);
      // Not a bearer header.
      expectError(await t.call("GET", "/auth/validate", { headers: { authorization: `Basic ${access_token}` } }), 401);
    });

    it("expires after 15 minutes", async () => {
      const { access_token } = await t.login(alice);
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 14 * 60 * 1000);
      expect((await validate(access_token)).status).toBe(200);
      vi.setSystemTime(Date.now() + 2 * 60 * 1000);
      expectError(await validate(access_token), 401);
    });

    it("is signed with a key derived from SESSION_SECRET: another secret refuses it", async () => {
      const { access_token } = await t.login(alice);
      const other = await createTestPlatform(kind, { env: { SESSION_SECRET: "another-secret-of-at-least-32-characters" } });
      try {
        expectError(await other.call("GET", "/auth/validate", { token: access_token }), 401);
      } finally {
        await other.close();
      }
    });
  });

  describe("POST /auth/refresh", () => {
    it("rotates: a new pair each time, every access token valid", async () => {
      const first = await t.login(alice);
      const r1 = await refresh(first.refresh_token);
      expect(r1.status).toBe(200);
      expect(r1.body).toMatchObject({ token_type: "bearer", expires_in: 900 });
      expect(r1.body.refresh_token).not.toBe(first.refresh_token);
      expect(r1.body.access_token).not.toBe(first.access_token);
      expect((await validate(r1.body.access_token)).body.username).toBe(alice.username);
      const r2 = await refresh(r1.body.refresh_token);
      expect(r2.status).toBe(200);
      expect((await validate(r2.body.access_token)).status).toBe(200);
    });

    it("treats a reused refresh token as theft: 401 and the whole family revoked", async () => {
      const first = await t.login(alice);
      const other = await t.login(alice); // another login: another family
      const r1 = (await refresh(first.refresh_token)).body;
      const r2 = (await refresh(r1.refresh_token)).body;
      expectError(await refresh(first.refresh_token), 401);
      // The newest token of that family is dead too.
      expectError(await refresh(r2.refresh_token), 401);
      // The other login is untouched.
      expect((await refresh(other.refresh_token)).status).toBe(200);
    });

    it("lets only one of two concurrent uses of a token win", async () => {
      const { refresh_token } = await t.login(alice);
      const results = await Promise.all([refresh(refresh_token), refresh(refresh_token)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    });

    it("stores refresh tokens hashed and refuses unknown or expired ones", async () => {
      const { refresh_token } = await t.login(alice);
      const plain = await t.platform.db.selectFrom("refresh_tokens").select("token_hash").where("token_hash", "=", refresh_token).execute();
      expect(plain).toHaveLength(0);

      expectError(await refresh("never-issued"), 401);
      expectError(await t.call("POST", "/auth/refresh", { body: {} }), 400, /refresh_token/);

      const fresh = await t.login(alice);
      await t.platform.db
        .updateTable("refresh_tokens")
        .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
        .where("user_id", "=", alice.user.id)
        .where("revoked_at", "is", null)
        .execute();
      expectError(await refresh(fresh.refresh_token), 401);
    });
  });

  describe("POST /auth/logout", () => {
    it("revokes the login's refresh tokens and no other login's", async () => {
      const a = await t.login(alice);
      const b = await t.login(alice);
      const rotated = (await refresh(a.refresh_token)).body;
      const res = await t.call("POST", "/auth/logout", { body: { refresh_token: rotated.refresh_token }, token: rotated.access_token });
      expect(res.status).toBe(200);
      expect(typeof res.body.message).toBe("string");
      expectError(await refresh(rotated.refresh_token), 401);
      expect((await refresh(b.refresh_token)).status).toBe(200);
    });

    it("answers calmly for an unknown token or none", async () => {
      expect((await t.call("POST", "/auth/logout", { body: { refresh_token: "unknown" } })).status).toBe(200);
      expect((await t.call("POST", "/auth/logout")).status).toBe(200);
    });
  });
});
