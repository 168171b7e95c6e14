// Sign-in with GitHub and Google against a real OAuth2 server on loopback
// (tests/support/oauth-provider.ts): PKCE, single-use state, code replay, account creation,
// unique usernames, linking by verified e-mail, and the provider not being configured.
// Over 350 lines: every case signs in through the same provider and platform fixtures, and a
// reader checks the OAuth rules in one place.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, DATABASES, freshIp, type TestPlatform, unique } from "../support/platform.ts";
import { type OAuthProfile, type OAuthProvider, type ProviderName, startOAuthProvider } from "../support/oauth-provider.ts";
import { makeSshKey, putSshKey } from "../support/ssh-keys.ts";
import { expectError, expectNoSecrets } from "./assertions.ts";

const INVALID_STATE = "Invalid state parameter - possible CSRF attack";
const MISSING = "Missing authorization code or state parameter";
const UNVERIFIED = (label: string) =>
  `${label} has not verified the e-mail address of your account. Verify it with ${label} first, or register with a password.`;
// The provider accepts loopback redirect URIs only, as a registered OAuth app would.
const PUBLIC_URL = "http://127.0.0.1:3000";

describe.each(DATABASES)("OAuth sign-in on %s", (kind) => {
  let t: TestPlatform;
  let provider: OAuthProvider;
  beforeAll(async () => {
    provider = await startOAuthProvider();
    t = await createTestPlatform(kind, { env: { ...provider.env, PUBLIC_URL } });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  const start = async (p: ProviderName) => {
    // A fresh address each time: starts are limited per address (oauth-starts.test.ts).
    const res = await t.call("GET", `/auth/oauth/${p}/login`, { ip: freshIp() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { state: string; auth_url: string };
  };
  const callback = (p: ProviderName, body: unknown) => t.call("POST", `/auth/oauth/${p}/callback`, { body });

  /** The whole dance as a browser would do it: start, authorize at the provider, call back. */
  async function signIn(p: ProviderName, profile: OAuthProfile = {}) {
    const resolved = provider.setNextProfile(p, profile);
    const { auth_url } = await start(p);
    const { code, state } = await provider.authorize(auth_url);
    const res = await callback(p, { code, state });
    return { res, profile: resolved, code, state };
  }

  async function usersWithEmail(email: string) {
    return t.platform.db.selectFrom("users").select(["id", "username"]).where("email", "=", email.toLowerCase()).execute();
  }

  describe("GET /auth/oauth/{provider}/login", () => {
    it.each(["github", "google"] as const)("%s: answers state and an auth_url with PKCE S256", async (p) => {
      const { state, auth_url } = await start(p);
      expect(state).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      const url = new URL(auth_url);
      expect(`${url.origin}${url.pathname}`).toBe(provider.env[`${p.toUpperCase()}_AUTHORIZE_URL`]);
      const q = url.searchParams;
      expect(q.get("client_id")).toBe(provider.env[`${p.toUpperCase()}_CLIENT_ID`]);
      expect(q.get("redirect_uri")).toBe(`${PUBLIC_URL}/auth/oauth/${p}/callback`);
      expect(q.get("response_type")).toBe("code");
      expect(q.get("state")).toBe(state);
      expect(q.get("code_challenge_method")).toBe("S256");
      expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(q.get("scope")).toMatch(p === "github" ? /user:email/ : /openid.*email/);
      // Never the client secret.
      expect(auth_url).not.toContain(provider.env[`${p.toUpperCase()}_CLIENT_SECRET`]);
      // Each start is a new state and a new challenge.
      const again = new URL((await start(p)).auth_url).searchParams;
      expect(again.get("state")).not.toBe(state);
      expect(again.get("code_challenge")).not.toBe(q.get("code_challenge"));
    });

    it("reports both providers configured", async () => {
      expect((await t.call("GET", "/auth/oauth/providers")).body).toEqual({ github: { enabled: true }, google: { enabled: true } });
    });
  });

  describe("POST /auth/oauth/{provider}/callback", () => {
    it("creates a verified GitHub user named after the login, and signs them in", async () => {
      const login = unique("octo");
      const { res, profile } = await signIn("github", { login, name: "Octo Cat", email: `${login}@mail.example.test` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        mfa_required: false,
        user: {
          username: login,
          email: profile.email,
          is_verified: true,
          oauth_provider: "github",
          github_username: login,
          display_name: "Octo Cat",
          has_password: false,
          connected_accounts: ["github"],
        },
      });
      expectNoSecrets(res.body.user);
      const validate = await t.call("GET", "/auth/validate", { token: res.body.access_token });
      expect(validate.body.username).toBe(login);
      expect((await t.call("POST", "/auth/refresh", { body: { refresh_token: res.body.refresh_token } })).status).toBe(200);
      // No password to sign in with, and the same answer as for anyone else.
      expectError(
        await t.call("POST", "/auth/login", { body: { username_or_email: login, password: "anything at all" }, ip: freshIp() }),
        401,
        "Incorrect username or password",
      );
    });

    it("signs the same provider identity into the same account next time", async () => {
      const first = await signIn("github", { login: unique("again") });
      const second = await signIn("github", { id: first.profile.id, login: first.profile.login });
      expect(second.res.status).toBe(200);
      expect(second.res.body.user.id).toBe(first.res.body.user.id);
      expect(await usersWithEmail(first.profile.email!)).toHaveLength(1);
    });

    it("makes the username unique when the login is taken", async () => {
      const taken = await t.register();
      const a = await signIn("github", { login: taken.username, email: `${unique("a")}@mail.example.test` });
      const b = await signIn("github", { login: taken.username.toUpperCase(), email: `${unique("b")}@mail.example.test` });
      expect(a.res.status).toBe(200);
      expect(b.res.status).toBe(200);
      const names = [taken.username, a.res.body.user.username, b.res.body.user.username];
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(3);
      expect(a.res.body.user.username).toBe(`${taken.username}-2`);
      expect(b.res.body.user.username.toLowerCase()).toBe(`${taken.username}-3`.toLowerCase());
      // The GitHub login itself is kept as it is.
      expect(a.res.body.user.github_username).toBe(taken.username);
      for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_-]{3,32}$/);
    });

    it("never takes a reserved name: a login equal to a staff word or a challenge id gets a suffix", async () => {
      for (const login of ["admin", "Nginx-Broken-Config"]) {
        const { res } = await signIn("github", { login, email: `${unique("reserved")}@mail.example.test` });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.user.username).toBe(`${login}-2`);
        expect(res.body.user.github_username).toBe(login);
      }
    });

    it("derives a valid username from odd logins and Google e-mails", async () => {
      const weird = await signIn("github", { login: "a" });
      expect(weird.res.status).toBe(200);
      expect(weird.res.body.user.username).toMatch(/^[A-Za-z0-9_-]{3,32}$/);
      const local = unique("jane.doe+x");
      const google = await signIn("google", { email: `${local}@gmail.example.test`, name: "Jane Doe" });
      expect(google.res.status).toBe(200);
      expect(google.res.body.user).toMatchObject({ oauth_provider: "google", github_username: null, is_verified: true });
      expect(google.res.body.user.username).toMatch(/^[A-Za-z0-9_-]{3,32}$/);
      expect(google.res.body.user.username).toContain("jane-doe-x");
    });

    it("refuses an e-mail the provider does not vouch for with the same answer, whether or not an account has it", async () => {
      const owner = await t.registerVerified();
      const fresh = `${unique("unv")}@mail.example.test`;
      const taken = await signIn("google", { email: owner.email, emailVerified: false });
      const free = await signIn("google", { email: fresh, emailVerified: false });
      expectError(taken.res, 400, UNVERIFIED("Google"));
      expect(free.res.status).toBe(taken.res.status);
      expect(free.res.body).toEqual(taken.res.body);
      // Nothing was made or linked.
      expect(await usersWithEmail(fresh)).toHaveLength(0);
      expect(await usersWithEmail(owner.email)).toHaveLength(1);
      expect((await t.login(owner)).user.connected_accounts).toEqual([]);
    });

    it("links an existing account with the same verified e-mail instead of duplicating it", async () => {
      const owner = await t.registerVerified();
      const { res } = await signIn("github", { login: unique("linked"), email: owner.email.toUpperCase() });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.user).toMatchObject({
        id: owner.user.id,
        username: owner.username,
        oauth_provider: "github",
        connected_accounts: ["github"],
        has_password: true,
      });
      expect(await usersWithEmail(owner.email)).toHaveLength(1);
      // The password still signs in too.
      expect((await t.login(owner)).user.id).toBe(owner.user.id);
      // Google with the same verified address joins the same account; the first provider stays.
      const g = await signIn("google", { email: owner.email });
      expect(g.res.body.user.id).toBe(owner.user.id);
      expect(g.res.body.user.oauth_provider).toBe("github");
      expect([...g.res.body.user.connected_accounts].sort()).toEqual(["github", "google"]);
    });

    it("takes over an unverified account's e-mail for its proven owner: the unproven password ends", async () => {
      const squatter = await t.register();
      const old = await t.login(squatter);
      const { res } = await signIn("google", { email: squatter.email });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: squatter.user.id, is_verified: true, has_password: false, oauth_provider: "google" });
      expectError(await t.call("POST", "/auth/refresh", { body: { refresh_token: old.refresh_token } }), 401);
      expectError(await t.call("POST", "/auth/login", { body: { username_or_email: squatter.username, password: squatter.password }, ip: freshIp() }), 401);
    });

    it("ends every credential an unproven party set on the account it takes over", async () => {
      // Someone signs up first with the victim's address (never verified), with a password, 2FA
      // and an SSH key...
      const victimEmail = `${unique("victim")}@mail.example.test`;
      const squatter = await t.register({ email: victimEmail });
      const squat = { res: { body: await t.login(squatter) } };
      expect(squat.res.body.user.is_verified).toBe(false);
      const token = squat.res.body.access_token;
      const { secret } = (await t.call("POST", "/auth/2fa/setup", { token, body: { current_password: squatter.password } })).body;
      const OTPAuth = await import("otpauth");
      const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
      expect((await t.call("POST", "/auth/2fa/verify", { token, body: { token: code, secret } })).status).toBe(200);
      const put = await putSshKey((method, path, body) => t.call(method, path, { token, body }), makeSshKey("squatter").file);
      expect(put.status, JSON.stringify(put.body)).toBe(200);

      // ...then the real owner signs in with a provider that vouches for the address.
      const owner = await signIn("github", { login: unique("owner"), email: victimEmail });
      expect(owner.res.status, JSON.stringify(owner.res.body)).toBe(200);
      expect(owner.res.body.mfa_required).toBe(false); // not the squatter's second factor
      expect(owner.res.body.user).toMatchObject({
        id: squat.res.body.user.id,
        is_verified: true,
        totp_enabled: false,
        has_ssh_key: false,
        has_password: false,
        oauth_provider: "github",
        connected_accounts: ["github"],
      });
      // The squatter's password no longer opens the account, nor does their refresh token.
      expectError(await t.call("POST", "/auth/login", { body: { username_or_email: squatter.username, password: squatter.password }, ip: freshIp() }), 401);
      expectError(await t.call("POST", "/auth/refresh", { body: { refresh_token: squat.res.body.refresh_token } }), 401);
    });

    it("refuses to link when the provider does not vouch for the e-mail", async () => {
      const owner = await t.registerVerified();
      const { res } = await signIn("github", { login: unique("nolink"), email: owner.email, emailVerified: false });
      expectError(res, 400, UNVERIFIED("GitHub"));
      expect(await usersWithEmail(owner.email)).toHaveLength(1);
      expect((await t.login(owner)).user.connected_accounts).toEqual([]);
    });

    it("refuses a wrong state, and a state made for the other provider", async () => {
      provider.setNextProfile("github", {});
      const { auth_url } = await start("github");
      const { code, state } = await provider.authorize(auth_url);
      expectError(await callback("github", { code, state: `${state}x` }), 400, INVALID_STATE);
      expectError(await callback("github", { code, state: "forged" }), 400, INVALID_STATE);
      const googleState = (await start("google")).state;
      expectError(await callback("github", { code, state: googleState }), 400, INVALID_STATE);
      // The real state still works: a wrong guess does not burn it.
      expect((await callback("github", { code, state })).status).toBe(200);
    });

    it("refuses the same code and state a second time", async () => {
      const first = await signIn("github", { login: unique("replay") });
      expect(first.res.status).toBe(200);
      const before = await t.platform.db.selectFrom("users").select("id").execute();
      expectError(await callback("github", { code: first.code, state: first.state }), 400, INVALID_STATE);
      // The old code with a fresh state: the provider refuses the replayed code.
      const refusedBefore = provider.stats.tokenRefused;
      const { state } = await start("github");
      expectError(await callback("github", { code: first.code, state }), 400, "Authentication failed");
      expect(provider.stats.tokenRefused).toBe(refusedBefore + 1);
      expect(await t.platform.db.selectFrom("users").select("id").execute()).toHaveLength(before.length);
    });

    it("refuses a code the provider never issued", async () => {
      const { state } = await start("google");
      expectError(await callback("google", { code: "made-up-code", state }), 400, "Authentication failed");
    });

    it("expires the state after 10 minutes", async () => {
      provider.setNextProfile("github", {});
      const { auth_url } = await start("github");
      const { code, state } = await provider.authorize(auth_url);
      await t.platform.db
        .updateTable("oauth_states")
        .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
        .execute();
      expectError(await callback("github", { code, state }), 400, INVALID_STATE);
    });

    it("needs both code and state", async () => {
      expectError(await callback("github", { state: "s" }), 400, new RegExp(MISSING));
      expectError(await callback("github", { code: "c" }), 400, new RegExp(MISSING));
      expectError(await callback("github", { code: "", state: "" }), 400, new RegExp(MISSING));
    });

    it("asks for the second factor when the account has 2FA on", async () => {
      const first = await signIn("github", { login: unique("mfa") });
      const token = first.res.body.access_token;
      // 2FA on through the API, with a code computed from the shown secret.
      const { secret } = (await t.call("POST", "/auth/2fa/setup", { token })).body;
      const OTPAuth = await import("otpauth");
      const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
      expect((await t.call("POST", "/auth/2fa/verify", { token, body: { token: code, secret } })).status).toBe(200);
      const again = await signIn("github", { id: first.profile.id, login: first.profile.login });
      expect(again.res.status).toBe(200);
      expect(again.res.body).toMatchObject({ mfa_required: true });
      expect(typeof again.res.body.mfa_token).toBe("string");
      expect(again.res.body.access_token).toBeUndefined();
    });

    it("has no password to change for an OAuth-only user", async () => {
      const { res } = await signIn("github", { login: unique("nopw") });
      expectError(
        await t.call("PUT", "/users/me/password", {
          token: res.body.access_token,
          body: { current_password: "whatever", new_password: "a new password" },
        }),
        400,
        /has no password/,
      );
    });
  });
});

describe.each(DATABASES)("OAuth without configuration on %s", (kind) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ["github", "GitHub"],
    ["google", "Google"],
  ])("%s: login and callback answer 503 saying it is not configured", async (p, label) => {
    expectError(await t.call("GET", `/auth/oauth/${p}/login`), 503, `${label} sign-in is not configured on this server`);
    expectError(await t.call("POST", `/auth/oauth/${p}/callback`, { body: { code: "c", state: "s" } }), 503, /not configured/);
  });

  it("reports both providers disabled", async () => {
    expect((await t.call("GET", "/auth/oauth/providers")).body).toEqual({ github: { enabled: false }, google: { enabled: false } });
  });
});

describe("OAuth when the provider is unreachable", () => {
  it("answers 502 when the token endpoint accepts the connection and never answers, after 10 s, not never", async () => {
    const provider = await startOAuthProvider();
    const silent = createServer(() => {}); // takes the connection, says nothing
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const tokenUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/token`;
    const t = await createTestPlatform("sqlite", { env: { ...provider.env, GITHUB_TOKEN_URL: tokenUrl, PUBLIC_URL } });
    try {
      const { state } = (await t.call("GET", "/auth/oauth/github/login")).body;
      const t0 = Date.now();
      const res = await t.call("POST", "/auth/oauth/github/callback", { body: { code: "c", state } });
      expectError(res, 502, "Authentication failed");
      expect(Date.now() - t0).toBeGreaterThanOrEqual(9_000);
    } finally {
      await t.close();
      silent.closeAllConnections();
      silent.close();
      await provider.close();
    }
  }, 30_000);

  it("answers 502 'Authentication failed', not a 500", async () => {
    const provider = await startOAuthProvider();
    const env = { ...provider.env, PUBLIC_URL };
    await provider.close(); // nothing listens there any more
    const t = await createTestPlatform("sqlite", { env });
    try {
      const { state } = (await t.call("GET", "/auth/oauth/github/login")).body;
      const res = await t.call("POST", "/auth/oauth/github/callback", { body: { code: "c", state } });
      expectError(res, 502, "Authentication failed");
    } finally {
      await t.close();
    }
  });
});
