// Sign-up and e-mail proof: POST /auth/register, /auth/verify-email, /auth/resend-verification.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, DATABASES, freshIp, PUBLIC_URL, type TestPlatform, unique, verificationToken } from "../support/platform.ts";
import { expectError, expectNoSecrets } from "./assertions.ts";

describe.each(DATABASES)("registration and e-mail verification on %s", (kind) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const register = (body: unknown, ip = freshIp()) => t.call("POST", "/auth/register", { body, ip });

  describe("POST /auth/register", () => {
    it("answers 201 with the new, unverified user and no secrets", async () => {
      const username = unique("New-User");
      const password = "correct horse battery";
      const res = await register({ username, email: `${username}@Example.Test`, password });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        username,
        email: `${username}@example.test`.toLowerCase(),
        is_verified: false,
        is_admin: false,
        has_ssh_key: false,
        totp_enabled: false,
        oauth_provider: null,
        has_password: true,
      });
      expect(typeof res.body.id).toBe("string");
      expect(res.body.created_at).toBeGreaterThan(1.6e9);
      expect(res.body.created_at).toBeLessThan(1e12); // epoch seconds
      expectNoSecrets(res.body, password);
    });

    it("writes a verification mail with a link to PUBLIC_URL/verify-email", async () => {
      const u = await t.register();
      const mail = t.mail(u.email);
      expect(mail.subject).toMatch(/verify/i);
      expect(mail.text).toContain(`${PUBLIC_URL}/verify-email?token=`);
      expect(mail.text).toMatch(/24 hours/);
      expect(verificationToken(mail).length).toBeGreaterThanOrEqual(32);
    });

    it("refuses a taken username with 409, whatever its case (usernames are public)", async () => {
      const u = await t.register();
      const other = unique("other");
      for (const body of [
        { username: u.username, email: `${other}@example.test`, password: "long enough 1" },
        { username: u.username.toUpperCase(), email: `${other}@example.test`, password: "long enough 1" },
      ]) {
        expectError(await register(body), 409, "Username or email already exists");
      }
      // Nothing was created by the refused attempts.
      expect(t.mails(`${other}@example.test`)).toHaveLength(0);
    });

    it("answers a taken e-mail exactly as a new account, creates nothing, and tells the address's owner", async () => {
      const owner = await t.register();
      const stranger = unique("stranger");
      const mailsBefore = t.mails(owner.email).length;
      const fresh = unique("fresh");
      const asNew = await register({ username: fresh, email: `${fresh}@example.test`, password: "long enough 1" });
      for (const email of [owner.email, owner.email.toUpperCase()]) {
        const name = unique("probe");
        const res = await register({ username: name, email, password: "long enough 1" });
        // The same status and the same fields, with the values a new account has.
        expect(res.status).toBe(asNew.status);
        expect(Object.keys(res.body).sort()).toEqual(Object.keys(asNew.body).sort());
        const neutral = (b: any) => ({ ...b, id: "-", username: "-", email: "-", created_at: 0 });
        expect(neutral(res.body)).toEqual(neutral(asNew.body));
        expect(res.body).toMatchObject({ username: name, email: owner.email.toLowerCase(), is_verified: false });
        expect(res.headers.get("content-type")).toBe(asNew.headers.get("content-type"));
        // No account was made: the name is still free, the owner's account unchanged.
        expect((await t.call("GET", `/users/${name}`)).status).toBe(404);
      }
      expect((await t.login(owner)).user.id).toBe(owner.user.id);
      const rows = await t.platform.db.selectFrom("users").select("id").where("email", "=", owner.email.toLowerCase()).execute();
      expect(rows).toHaveLength(1);
      // The owner hears of it, with no link that signs anyone in or verifies anything.
      const notices = t.mails(owner.email).slice(mailsBefore);
      expect(notices).toHaveLength(2);
      expect(notices[0]!.subject).toBe("Someone tried to sign up to faultline with your e-mail address");
      expect(notices[0]!.text).toContain(owner.username);
      expect(notices[0]!.text).not.toMatch(/verify-email|token=/);
      expect(t.mails(`${stranger}@example.test`)).toHaveLength(0);
    });

    it("refuses usernames outside 3-32 letters, digits, _ and - with a detail naming the rule", async () => {
      for (const username of ["ab", "x".repeat(33), "has space", "dot.ted", "émile", "semi;colon", "<script>"]) {
        const res = await register({ username, email: `${unique("e")}@example.test`, password: "long enough 1" });
        expectError(res, 400, /username/i);
        expect(res.body.detail).toMatch(/3 to 32/);
      }
      for (const username of ["abc", "x".repeat(32), "A_b-9"]) {
        const res = await register({ username, email: `${unique("e")}@example.test`, password: "long enough 1" });
        expect(res.status, `${username}: ${JSON.stringify(res.body)}`).toBe(201);
      }
    });

    it("refuses a bad e-mail, a short password and missing fields with a detail naming the field", async () => {
      const username = unique("val");
      for (const email of ["not-an-email", "a@", "@b.test", ""]) {
        expectError(await register({ username, email, password: "long enough 1" }), 400, /email/i);
      }
      const short = await register({ username, email: `${username}@example.test`, password: "short7!" });
      expectError(short, 400, /password/);
      expect(short.body.detail).toMatch(/at least 8 characters/);
      expectError(await register({ email: `${username}@example.test`, password: "long enough 1" }), 400, /username: is required/);
      expectError(await register({ username, email: `${username}@example.test` }), 400, /password: is required/);
      expectError(await register({ username, email: `${username}@example.test`, password: 12345678 }), 400, /password/);
      expect((await t.call("GET", `/users/${username}`)).status).toBe(404);
    });

    it("answers 400 for a body that is not JSON", async () => {
      for (const body of ["username=a&password=b", "{not json", "<xml/>"]) {
        expectError(await register(body), 400, "The request body must be JSON");
      }
      for (const body of ["null", "[]", '"text"', "42"]) {
        expectError(await register(body), 400);
      }
    });

    it("limits registrations from one address", async () => {
      const ip = freshIp();
      for (let i = 0; i < 10; i++) {
        const n = unique("flood");
        expect((await register({ username: n, email: `${n}@example.test`, password: "long enough 1" }, ip)).status).toBe(201);
      }
      const n = unique("flood");
      const res = await register({ username: n, email: `${n}@example.test`, password: "long enough 1" }, ip);
      expectError(res, 429);
      expect(res.body.retry_after).toBeGreaterThan(0);
      // Another address is not affected.
      expect((await register({ username: n, email: `${n}@example.test`, password: "long enough 1" })).status).toBe(201);
    });
  });

  describe("POST /auth/verify-email", () => {
    it("verifies the account with the mailed token, once only", async () => {
      const u = await t.register();
      const token = verificationToken(t.mail(u.email));
      const res = await t.call("POST", "/auth/verify-email", { body: { token } });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ username: u.username, is_verified: true });
      expectNoSecrets(res.body);

      const { access_token } = await t.login(u);
      expect((await t.call("GET", "/users/me", { token: access_token })).body.is_verified).toBe(true);
      expect((await t.call("GET", `/users/${u.username}`)).body.is_verified).toBe(true);

      expectError(await t.call("POST", "/auth/verify-email", { body: { token } }), 400, "The verification link is invalid or has expired.");
    });

    it("refuses a wrong, empty or missing token", async () => {
      const u = await t.register();
      const token = verificationToken(t.mail(u.email));
      for (const bad of [token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"), "nonsense", "x".repeat(64)]) {
        expectError(await t.call("POST", "/auth/verify-email", { body: { token: bad } }), 400, "The verification link is invalid or has expired.");
      }
      expectError(await t.call("POST", "/auth/verify-email", { body: { token: "" } }), 400);
      expectError(await t.call("POST", "/auth/verify-email", { body: {} }), 400, /token/);
      expectError(await t.call("POST", "/auth/verify-email", { body: { token: "x".repeat(5000) } }), 400);
      // The real token still works after the wrong guesses.
      expect((await t.call("POST", "/auth/verify-email", { body: { token } })).status).toBe(200);
    });

    it("refuses an expired token", async () => {
      const u = await t.register();
      const token = verificationToken(t.mail(u.email));
      const now = Math.floor(Date.now() / 1000);
      const updated = await t.platform.db
        .updateTable("verifications")
        .set({ expires_at: now - 1 })
        .where("user_id", "=", u.user.id)
        .where("purpose", "=", "email")
        .executeTakeFirst();
      expect(Number(updated.numUpdatedRows)).toBe(1);
      expectError(await t.call("POST", "/auth/verify-email", { body: { token } }), 400, "The verification link is invalid or has expired.");
      const { access_token } = await t.login(u);
      expect((await t.call("GET", "/users/me", { token: access_token })).body.is_verified).toBe(false);
    });

    it("stores the token hashed, expiring 24 hours after it was sent", async () => {
      const u = await t.register();
      const token = verificationToken(t.mail(u.email));
      const rows = await t.platform.db.selectFrom("verifications").selectAll().where("user_id", "=", u.user.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).not.toContain(token);
      const now = Math.floor(Date.now() / 1000);
      expect(rows[0]!.expires_at).toBeGreaterThanOrEqual(now + 24 * 3600 - 60);
      expect(rows[0]!.expires_at).toBeLessThanOrEqual(now + 24 * 3600);
    });
  });

  describe("POST /auth/resend-verification", () => {
    it("sends the signed-in user a new link that replaces the old one", async () => {
      const u = await t.register();
      const first = verificationToken(t.mail(u.email));
      const { access_token } = await t.login(u);
      const res = await t.call("POST", "/auth/resend-verification", { token: access_token, body: {} });
      expect(res.status).toBeLessThan(300);
      expect(typeof res.body.message).toBe("string");
      const mails = t.mails(u.email);
      expect(mails).toHaveLength(2);
      const second = verificationToken(mails[1]!);
      expect(second).not.toBe(first);
      expectError(await t.call("POST", "/auth/verify-email", { body: { token: first } }), 400);
      expect((await t.call("POST", "/auth/verify-email", { body: { token: second } })).status).toBe(200);
    });

    it("answers the same 202 for a known and an unknown address, and mails only the known one", async () => {
      const u = await t.register();
      const known = await t.call("POST", "/auth/resend-verification", { body: { email: u.email.toUpperCase() } });
      const stranger = `${unique("nobody")}@example.test`;
      const unknown = await t.call("POST", "/auth/resend-verification", { body: { email: stranger } });
      expect(known.status).toBe(202);
      expect(unknown.status).toBe(202);
      expect(unknown.body).toEqual(known.body);
      expect(t.mails(u.email)).toHaveLength(2);
      expect(t.mails(stranger)).toHaveLength(0);
    });

    it("sends nothing to an account that is already verified, with the same answer", async () => {
      const u = await t.registerVerified();
      const res = await t.call("POST", "/auth/resend-verification", { body: { email: u.email } });
      expect(res.status).toBe(202);
      expect(t.mails(u.email)).toHaveLength(1);
    });

    it("needs an e-mail or a valid bearer token", async () => {
      expectError(await t.call("POST", "/auth/resend-verification", { body: {} }), 400, /email/);
      expectError(await t.call("POST", "/auth/resend-verification", { body: { email: "nope" } }), 400, /email/);
      expectError(await t.call("POST", "/auth/resend-verification", { body: {}, token: "not-a-jwt" }), 401);
    });

    it("limits how often one account is re-sent a link, without telling a stranger the account exists", async () => {
      const u = await t.register();
      const generic = await t.call("POST", "/auth/resend-verification", { body: { email: `${unique("nobody")}@example.test` } });
      for (let i = 0; i < 3; i++) {
        expect((await t.call("POST", "/auth/resend-verification", { body: { email: u.email } })).status).toBe(202);
      }
      expect(t.mails(u.email)).toHaveLength(4);
      const res = await t.call("POST", "/auth/resend-verification", { body: { email: u.email } });
      expect(t.mails(u.email)).toHaveLength(4);
      expect(res.status).toBe(202);
      expect(res.body).toEqual(generic.body);
      // The owner, signed in, is told plainly to wait.
      const { access_token } = await t.login(u);
      const own = await t.call("POST", "/auth/resend-verification", { token: access_token, body: {} });
      expectError(own, 429);
      expect(own.body.retry_after).toBeGreaterThan(0);
      expect(t.mails(u.email)).toHaveLength(4);
    });
  });
});
