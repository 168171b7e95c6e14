// The account basics on SQLite and PostgreSQL, through the API as the web calls it, mail
// read back from the outbox: forgot password, e-mail change, account deletion, the data export,
// notification mails and their one-click unsubscribe links.
// Over 350 lines: the account-basics journeys (forgot password, e-mail change, deletion, export,
//  unsubscribe) share one platform, outbox reader and user helpers.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPasswordReset, FORGOT_ANSWER, RESET_LINK_INVALID } from "#server/core/accounts/password-reset.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { createLogger } from "#server/logger.ts";
import { createRateLimiter } from "#server/core/ratelimit.ts";
import { nowSeconds } from "#server/db/index.ts";
import { withRequest } from "#server/core/audit.ts";
import { createTestPlatform, DATABASES, freshIp, type MailMessage, PUBLIC_URL, type TestPlatform, type TestUser, unique } from "../support/platform.ts";
import { expectError, expectNoSecrets } from "./assertions.ts";

const NGINX = "nginx-broken-config";

/** The token of the first link in a mail to `path` (e.g. /reset-password). */
function linkToken(mail: MailMessage, path: string): string {
  const m = new RegExp(`${PUBLIC_URL.replace(/[.:/]/g, "\\$&")}${path}\\?token=([^\\s"'<>]+)`).exec(mail.text);
  if (!m) throw new Error(`no ${path} link in mail to ${mail.to}:\n${mail.text}`);
  return decodeURIComponent(m[1]!);
}
const rawHeaders = (mail: MailMessage) =>
  readFileSync(mail.file, "utf8")
    .split(/\r?\n\r?\n/)[0]!
    .replace(/\r?\n[ \t]+/g, " ");

describe.each(DATABASES)("account basics on %s", (kind) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { env: { RUNTIME: "none" } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const idOf = async (u: TestUser) => (await t.platform.db.selectFrom("users").select("id").where("username", "=", u.username).executeTakeFirstOrThrow()).id;
  /** Asks for a reset link; the mail goes out after the answer, so wait for it to be written. */
  const forgot = async (email: string, ip = freshIp()) => {
    const res = await t.call("POST", "/auth/password-reset/request", { body: { email }, ip });
    await t.platform.account.passwordReset.settled();
    return res;
  };

  describe("forgot password", () => {
    it("answers the same whether or not the account exists, and mails a link only to a real account", async () => {
      const u = await t.registerVerified();
      const known = await forgot(u.email.toUpperCase());
      const unknownEmail = `${unique("nobody")}@example.test`;
      const unknown = await forgot(unknownEmail);
      expect(known.status).toBe(202);
      expect(unknown.status).toBe(202);
      expect(known.body).toEqual(unknown.body);
      expect(known.body).toEqual({ message: FORGOT_ANSWER });
      expect(t.mails(unknownEmail)).toHaveLength(0);
      const mail = t.mail(u.email);
      expect(mail.subject).toBe("Reset your faultline password");
      expect(mail.text).toContain("one hour");
      // Stored hashed: the token in the mail is nowhere in the table.
      const token = linkToken(mail, "/reset-password");
      const rows = await t.platform.db.selectFrom("password_resets").selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(token);
    });

    it("the link works once, with registration's password rules, and ends every web session and refresh token (audited)", async () => {
      const u = await t.registerVerified();
      const id = await idOf(u);
      const signedIn = await t.login(u);
      await t.platform.webSessions.create({ userId: id }, { userId: id });
      await forgot(u.email);
      const token = linkToken(t.mail(u.email), "/reset-password");
      expect((await t.call("POST", "/auth/password-reset/check", { body: { token } })).body).toEqual({ valid: true });
      expectError(await t.call("POST", "/auth/password-reset", { body: { token, new_password: "short" } }), 400, /new_password: must be at least 8 characters/);
      const done = await t.call("POST", "/auth/password-reset", { body: { token, new_password: "a brand new password" } });
      expect(done.status).toBe(200);
      // Used: refused the second time, and the check says so.
      expectError(await t.call("POST", "/auth/password-reset", { body: { token, new_password: "another new password" } }), 400, RESET_LINK_INVALID);
      expect((await t.call("POST", "/auth/password-reset/check", { body: { token } })).body).toEqual({ valid: false });
      // Sessions and refresh tokens are gone; the new password signs in, the old one does not.
      expectError(await t.call("POST", "/auth/refresh", { body: { refresh_token: signedIn.refresh_token } }), 401);
      expect(await t.platform.db.selectFrom("web_sessions").select("id_hash").where("user_id", "=", id).execute()).toHaveLength(0);
      expect((await t.call("POST", "/auth/login", { body: { username_or_email: u.username, password: u.password }, ip: freshIp() })).status).toBe(401);
      await t.login({ username: u.username, password: "a brand new password" });
      const audit = await t.platform.db
        .selectFrom("audit_log")
        .select("action")
        .where("actor_id", "=", id)
        .where("action", "=", "auth.password_reset")
        .execute();
      expect(audit).toHaveLength(1);
    });

    it("a link expires after one hour (injected clock)", async () => {
      const u = await t.registerVerified();
      let clock = nowSeconds();
      const resets = createPasswordReset({
        db: t.platform.db,
        mailer: createMailer({ from: "faultline <noreply@faultline.test>", dataDir: t.dataDir, log: createLogger("silent"), env: "test" }),
        limiter: createRateLimiter(),
        publicUrl: new URL(PUBLIC_URL),
        tokens: t.platform.tokens,
        now: () => clock,
      });
      await resets.requestReset(u.email, freshIp());
      await resets.settled();
      const token = linkToken(t.mail(u.email), "/reset-password");
      clock += 3599;
      expect(await resets.checkToken(token)).toEqual({ valid: true });
      clock += 1;
      expect(await resets.checkToken(token)).toEqual({ valid: false });
      await expect(resets.resetPassword(token, "too late a password")).rejects.toThrow(RESET_LINK_INVALID);
    });

    it("is rate-limited per e-mail address (known or not: the same 429) and per client address", async () => {
      const u = await t.registerVerified();
      const unknownEmail = `${unique("ghost")}@example.test`;
      for (const email of [u.email, unknownEmail]) {
        for (let i = 0; i < 3; i++) expect((await forgot(email)).status).toBe(202);
        expectError(await forgot(email), 429, /Too many attempts/);
      }
      expect(t.mails(u.email).filter((m) => m.subject.includes("Reset"))).toHaveLength(3);
      const ip = freshIp();
      for (let i = 0; i < 10; i++) expect((await forgot(`${unique("x")}@example.test`, ip)).status).toBe(202);
      expectError(await forgot(`${unique("x")}@example.test`, ip), 429, /Too many attempts/);
    });

    it("a link of another kind is not a reset link, and a reset link changes no e-mail", async () => {
      const u = await t.register();
      const verify = linkToken(t.mail(u.email), "/verify-email");
      expectError(await t.call("POST", "/auth/password-reset", { body: { token: verify, new_password: "long enough 1" } }), 400, RESET_LINK_INVALID);
      await forgot(u.email);
      const reset = linkToken(t.mail(u.email), "/reset-password");
      expectError(await t.call("POST", "/users/me/email/confirm", { body: { token: reset } }), 400, "This confirmation link is invalid or has expired.");
      expectError(await t.call("POST", "/auth/verify-email", { body: { token: reset } }), 400);
      // Still good for what it is.
      expect((await t.call("POST", "/auth/password-reset/check", { body: { token: reset } })).body).toEqual({ valid: true });
    });

    it("validates its input", async () => {
      expectError(await t.call("POST", "/auth/password-reset/request", { body: { email: "not an address" } }), 400, /email: must be a valid e-mail address/);
      expectError(await t.call("POST", "/auth/password-reset", { body: { new_password: "long enough 1" } }), 400, /token: is required/);
    });
  });

  describe("change e-mail", () => {
    it("needs the password, mails the new address, keeps the old one until the link is followed, tells the old address", async () => {
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      const newEmail = `${unique("moved")}@example.test`;
      expectError(
        await t.call("POST", "/users/me/email", { token, body: { new_email: newEmail, current_password: "wrong password" } }),
        400,
        "Current password is incorrect",
      );
      expectError(await t.call("POST", "/users/me/email", { token, body: { new_email: newEmail } }), 400);
      const asked = await t.call("POST", "/users/me/email", { token, body: { new_email: newEmail, current_password: u.password } });
      expect(asked.status).toBe(202);
      await t.platform.account.emailChange.settled(); // mails go after the answer
      expect(t.mail(u.email).subject).toBe("Your faultline e-mail address is being changed");
      // The old address still signs in and is still the account's.
      expect((await t.call("GET", "/users/me", { token })).body.email).toBe(u.email);
      await t.login({ username: u.email, password: u.password });
      const link = linkToken(t.mail(newEmail), "/confirm-email");
      const confirmed = await t.call("POST", "/users/me/email/confirm", { body: { token: link } });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.user.email).toBe(newEmail);
      expectError(await t.call("POST", "/users/me/email/confirm", { body: { token: link } }), 400, "This confirmation link is invalid or has expired.");
      await t.login({ username: newEmail, password: u.password });
      await t.platform.account.emailChange.settled();
      expect(t.mail(u.email).subject).toBe("Your faultline e-mail address was changed");
    });

    it("an account without password or 2FA (OAuth only) needs no proof; with 2FA on, a code is asked for", async () => {
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      await t.platform.db.updateTable("users").set({ password_hash: null, oauth_provider: "github" }).where("username", "=", u.username).execute();
      const newEmail = `${unique("oauth")}@example.test`;
      expect((await t.call("POST", "/users/me/email", { token, body: { new_email: newEmail } })).status).toBe(202);
      await t.platform.account.emailChange.settled();
      expect(t.mails(newEmail)).toHaveLength(1);
      // A factor turned on two days ago in another sign-in: its codes are a step-up (decision 017).
      await t.platform.db
        .updateTable("users")
        .set({ totp_enabled: 1, totp_secret: "JBSWY3DPEHPK3PXP", totp_enabled_at: Math.floor(Date.now() / 1000) - 2 * 86400 })
        .where("username", "=", u.username)
        .execute();
      expectError(await t.call("POST", "/users/me/email", { token, body: { new_email: `${unique("oauth")}@example.test` } }), 400, /Confirm with/);
      expectError(
        await t.call("POST", "/users/me/email", { token, body: { new_email: `${unique("oauth")}@example.test`, code: "000000" } }),
        400,
        "Invalid verification code",
      );
    });

    it("an address another account uses gets the same answer and no link", async () => {
      const u = await t.registerVerified();
      const other = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      const before = t.mails(other.email).length;
      const res = await t.call("POST", "/users/me/email", { token, body: { new_email: other.email, current_password: u.password } });
      expect(res.status).toBe(202);
      await t.platform.account.emailChange.settled();
      expect(t.mails(other.email)).toHaveLength(before);
    });
  });

  /** A finished deployment with a correct submission and its solve: a board entry. */
  async function solved(userId: string) {
    const { db } = t.platform;
    const now = nowSeconds();
    const deployment = crypto.randomUUID();
    await db
      .insertInto("deployments")
      .values({
        id: deployment,
        user_id: userId,
        challenge_id: NGINX,
        status: "terminated",
        error_message: null,
        ssh_user: NGINX,
        container_id: null,
        scenario_values: '{"secret":"scenario-value"}',
        active_key: null,
        created_at: now - 600,
        ready_at: now - 590,
        expires_at: now + 600,
        ended_at: now,
        updated_at: now,
      } as never)
      .execute();
    await db
      .insertInto("submissions")
      .values({
        id: crypto.randomUUID(),
        user_id: userId,
        challenge_id: NGINX,
        deployment_id: deployment,
        solution: "fixed the nginx config",
        is_correct: 1,
        feedback: "Correct!",
        created_at: now,
      })
      .execute();
    await db
      .insertInto("solves")
      .values({ user_id: userId, challenge_id: NGINX, deployment_id: deployment, points: 100, solve_seconds: 600, solved_at: now })
      .execute();
  }
  const onBoard = async (username: string) => {
    const board = await t.call("GET", `/leaderboard?search=${encodeURIComponent(username)}&limit=100`);
    return (board.body.entries as { username: string }[]).some((e) => e.username === username);
  };

  describe("delete account", () => {
    it("confirms with the password, removes the user and everything of theirs, takes them off the board, leaves others alone", async () => {
      const u = await t.registerVerified();
      const other = await t.registerVerified();
      const id = await idOf(u);
      const otherId = await idOf(other);
      await solved(id);
      await solved(otherId);
      expect(await onBoard(u.username)).toBe(true);
      const { access_token: token, refresh_token } = await t.login(u);
      expectError(await t.call("DELETE", "/users/me", { token, body: { current_password: "not it at all" } }), 400, "Current password is incorrect");
      expectError(await t.call("DELETE", "/users/me", { token, body: {} }), 400);
      const res = await t.call("DELETE", "/users/me", { token, body: { current_password: u.password } });
      expect(res.status).toBe(200);
      const { db } = t.platform;
      for (const table of ["users", "deployments", "submissions", "solves", "refresh_tokens", "web_sessions", "verifications"] as const) {
        const col = table === "users" ? "id" : "user_id";
        expect(
          await db
            .selectFrom(table)
            .selectAll()
            .where(col as never, "=", id as never)
            .execute(),
          table,
        ).toHaveLength(0);
      }
      // The audit log keeps what happened, not who: no address, and no name (names are joined by
      // id when the log is read, and the account is gone).
      const entries = await db.selectFrom("audit_log").selectAll().where("actor_id", "=", id).execute();
      expect(entries.length).toBeGreaterThan(0);
      for (const e of entries) expect(e.ip).toBeNull();
      expect(JSON.stringify(entries)).not.toContain(u.username);
      expect(await onBoard(u.username)).toBe(false);
      expect(await onBoard(other.username)).toBe(true);
      expectError(await t.call("POST", "/auth/refresh", { body: { refresh_token } }), 401);
      expect((await t.call("POST", "/auth/login", { body: { username_or_email: u.username, password: u.password }, ip: freshIp() })).status).toBe(401);
      // The other user is whole.
      await t.login(other);
      expect(await db.selectFrom("submissions").selectAll().where("user_id", "=", otherId).execute()).toHaveLength(1);
    });

    it("an account without password or 2FA (OAuth only) confirms by typing its username", async () => {
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      await t.platform.db.updateTable("users").set({ password_hash: null, oauth_provider: "github" }).where("username", "=", u.username).execute();
      expectError(await t.call("DELETE", "/users/me", { token, body: { username: "someone else" } }), 400, "Type your username to confirm the deletion.");
      expect((await t.call("DELETE", "/users/me", { token, body: { username: u.username.toUpperCase() } })).status).toBe(200);
      expect(await t.platform.db.selectFrom("users").select("id").where("username", "=", u.username).execute()).toHaveLength(0);
    });
  });

  describe("export my data", () => {
    it("is a JSON download of everything personal, without secrets or another user's data", async () => {
      const u = await t.registerVerified();
      const other = await t.registerVerified();
      const id = await idOf(u);
      await solved(id);
      await solved(await idOf(other));
      const { access_token: token } = await t.login(u);
      const res = await t.call("GET", "/users/me/export", { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="faultline-${u.username}.json"`);
      const data = res.body;
      expect(Object.keys(data).sort()).toEqual([
        "achievements",
        "audit_entries",
        "connected_accounts",
        "deployments",
        "exported_at",
        "format",
        "profile",
        "recordings",
        "settings",
        "solves",
        "ssh_keys",
        "submissions",
        "version",
      ]);
      expect(data.profile).toMatchObject({ id, username: u.username, email: u.email, is_verified: true, has_password: true });
      expect(data.settings.notifications).toEqual({ newChallenges: true, solutionFeedback: true, leaderboardUpdates: false, marketingEmails: false });
      expect(data.submissions).toHaveLength(1);
      expect(data.submissions[0]).toMatchObject({ challenge_id: NGINX, solution: "fixed the nginx config", is_correct: true });
      expect(data.solves).toHaveLength(1);
      expect(data.deployments).toHaveLength(1);
      expect(
        data.achievements.find((a: { id: string }) => a.id === "first_blood")?.unlocked ?? data.achievements.some((a: { unlocked: boolean }) => a.unlocked),
      ).toBe(true);
      expect(data.audit_entries.map((e: { action: string }) => e.action)).toContain("auth.login");
      // What another did to them is there, without the other's address.
      const otherId = await idOf(other);
      await withRequest({ clientIp: "192.0.2.77" }, () =>
        t.platform.audit.record({ action: "admin.user_verify", actorId: otherId, target: { type: "user", id } }),
      );
      const again = (await t.call("GET", "/users/me/export", { token })).body;
      const byOther = again.audit_entries.find((e: { action: string }) => e.action === "admin.user_verify");
      expect(byOther).toMatchObject({ target_type: "user", target_id: id, ip: null });
      expect(JSON.stringify(again)).not.toContain("192.0.2.77");
      expectNoSecrets(data, u.password, "scenario-value");
      const text = JSON.stringify(data);
      expect(text).not.toContain(other.username);
      expect(text).not.toContain(other.email);
      expect(text).not.toMatch(/totp_secret|password_hash|refresh_token|scenario_values/);
      expectError(await t.call("GET", "/users/me/export"), 401);
    });

    it("is limited per account: ten an hour, then 429 (each one reads everything the player stored)", async () => {
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      for (let i = 0; i < 10; i++) expect((await t.call("GET", "/users/me/export", { token })).status).toBe(200);
      expectError(await t.call("GET", "/users/me/export", { token }), 429, /Too many attempts/);
      // Another account is not held back by it.
      const other = await t.registerVerified();
      expect((await t.call("GET", "/users/me/export", { token: (await t.login(other)).access_token })).status).toBe(200);
    });
  });

  describe("notification mails", () => {
    const graded = (userId: string) =>
      t.platform.account.notifications.submissionGraded(userId, {
        challengeTitle: "Nginx Broken Config",
        isCorrect: false,
        feedback: "nginx -t still fails",
        pointsAwarded: 0,
        alreadySolved: false,
      });

    it("solution feedback goes out when on, with the result and an RFC 8058 unsubscribe; none when off", async () => {
      const u = await t.registerVerified();
      const id = await idOf(u);
      await graded(id);
      const mail = t.mail(u.email);
      expect(mail.subject).toBe("Your solution to Nginx Broken Config: not correct yet");
      expect(mail.text).toContain("nginx -t still fails");
      const head = rawHeaders(mail);
      expect(head).toMatch(/^List-Unsubscribe: <http:\/\/faultline\.test:3000\/api\/v1\/notifications\/unsubscribe\?token=[^>]+>$/m);
      expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
      const { access_token: token } = await t.login(u);
      await t.call("PUT", "/users/me/notifications", { token, body: { solutionFeedback: false } });
      const count = t.mails(u.email).length;
      await graded(id);
      expect(t.mails(u.email)).toHaveLength(count);
    });

    it("the unsubscribe link turns the setting off without sign-in (page link and one-click POST); a forged one is refused", async () => {
      const u = await t.registerVerified();
      const id = await idOf(u);
      await graded(id);
      const token = linkToken(t.mail(u.email), "/unsubscribe");
      expect((await t.call("GET", `/notifications/unsubscribe?token=${encodeURIComponent(token)}`)).body).toEqual({
        setting: "solution_feedback",
        label: "solution feedback",
        subscribed: true,
      });
      const res = await t.call("POST", `/notifications/unsubscribe?token=${encodeURIComponent(token)}`, {
        body: "List-Unsubscribe=One-Click",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(res.status).toBe(200);
      const me = await t.call("GET", "/users/me", { token: (await t.login(u)).access_token });
      expect(me.body.notifications).toMatchObject({ solutionFeedback: false, newChallenges: true });
      // Forged: another setting or another user under the same signature.
      const [payload, sig] = token.split(".");
      const other = Buffer.from(`${id}:new_challenges`).toString("base64url");
      for (const bad of [`${other}.${sig}`, `${payload}.${"A".repeat(sig!.length)}`, "garbage"]) {
        expectError(await t.call("POST", `/notifications/unsubscribe?token=${encodeURIComponent(bad)}`), 400, "This unsubscribe link is not valid.");
      }
      expectError(await t.call("POST", "/notifications/unsubscribe"), 400, /token: is required/);
    });

    it("the new-challenge digest lists challenges first seen since the last one, at most once a day, and can be unsubscribed", async () => {
      const u = await t.registerVerified();
      const off = await t.registerVerified();
      await t.call("PUT", "/users/me/notifications", { token: (await t.login(off)).access_token, body: { newChallenges: false } });
      const { db } = t.platform;
      const userCreated = (await db.selectFrom("users").select("created_at").where("username", "=", u.username).executeTakeFirstOrThrow()).created_at;
      // A challenge published after they joined (as a catalogue sync would add it).
      await db
        .updateTable("challenges")
        .set({ created_at: userCreated + 10 })
        .where("id", "=", NGINX)
        .execute();
      const { notifications } = t.platform.account;
      const now = userCreated + 60;
      await notifications.sendDigests(now);
      const digest = t.mails(u.email).filter((m) => m.subject.startsWith("New on faultline") || m.subject.includes("new challenges"));
      expect(digest).toHaveLength(1);
      expect(digest[0]!.text).toContain(`${PUBLIC_URL}/challenges/${NGINX}`);
      expect(t.mails(off.email).filter((m) => m.subject.includes("faultline:") || m.subject.includes("new challenges"))).toHaveLength(0);
      // Another new challenge within the day: no second digest until a day has passed.
      const other = (await db.selectFrom("challenges").select("id").where("id", "!=", NGINX).executeTakeFirstOrThrow()).id;
      await db
        .updateTable("challenges")
        .set({ created_at: now + 100 })
        .where("id", "=", other)
        .execute();
      await notifications.sendDigests(now + 200);
      await notifications.sendDigests(now + 23 * 3600);
      const again = () => t.mails(u.email).filter((m) => m.subject.startsWith("New on faultline") || m.subject.includes("new challenges"));
      expect(again()).toHaveLength(1);
      await notifications.sendDigests(now + 24 * 3600 + 1);
      expect(again()).toHaveLength(2);
      expect(again()[1]!.text).not.toContain(`/challenges/${NGINX}\n`);
      // Its link turns the digest off.
      const token = linkToken(again()[1]!, "/unsubscribe");
      expect((await t.call("POST", `/notifications/unsubscribe?token=${encodeURIComponent(token)}`)).status).toBe(200);
      expect(
        (await db.selectFrom("users").select("notify_new_challenges").where("username", "=", u.username).executeTakeFirstOrThrow()).notify_new_challenges,
      ).toBe(0);
    });
  });

  describe("reset of a deployment (no engine here: the rules before it)", () => {
    it("needs a signed-in owner and an active deployment", async () => {
      expectError(await t.call("POST", `/challenges/${NGINX}/session/reset`), 401);
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      expectError(await t.call("POST", `/challenges/${NGINX}/session/reset`, { token }), 404, "No active deployment found. Please start the challenge first.");
      expectError(await t.call("POST", "/challenges/Not_An_Id/session/reset", { token }), 400);
    });
  });
});
