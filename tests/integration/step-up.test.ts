// Step-up that holds (decision 017), on SQLite and PostgreSQL through the API:
// enrolling 2FA needs the password; a factor added in this sign-in or less than 24 hours ago is
// no step-up for an e-mail change, a key change or a deletion; recovery codes (shown once, kept
// hashed, each good once) at enrolment, at sign-in and to turn 2FA off; mails on every 2FA
// change; the lost-authenticator link and its delay; an admin's reset, audited. TOTP codes are
// computed from the shown secret at explicit instants; the clock (Date only) is frozen.
// Over 350 lines: every path that must ask for a step-up, each on both databases over one platform;
//  split, the cases would lose the helpers they share.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as OTPAuth from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestPlatform, DATABASES, freshIp, type MailMessage, PUBLIC_URL, type TestPlatform, type TestUser } from "../support/platform.ts";
import { makeSshKey, putSshKey } from "../support/ssh-keys.ts";
import { expectError } from "./assertions.ts";

const STEP_MS = 30_000;
const HOUR_STEPS = 120;
/** An instant 10 s into time step `step`. */
const at = (step: number) => step * STEP_MS + 10_000;
const code = (secret: string, step: number) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: at(step) });

const FRESH_USE_PASSWORD =
  "A code from an authenticator added in this sign-in or in the last 24 hours cannot confirm this change: confirm with your current password.";
const FRESH_WAIT = /^A code from an authenticator added in this sign-in or in the last 24 hours cannot confirm this change yet/;

function linkToken(mail: MailMessage, path: string): string {
  const m = new RegExp(`${PUBLIC_URL.replace(/[.:/]/g, "\\$&")}${path}\\?token=([^\\s"'<>]+)`).exec(mail.text);
  if (!m) throw new Error(`no ${path} link in mail to ${mail.to}:\n${mail.text}`);
  return decodeURIComponent(m[1]!);
}

const keyDir = mkdtempSync(join(tmpdir(), "faultline-stepup-keys-"));
let keys = 0;
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

describe.each(DATABASES)("step-up and two-factor recovery on %s", (kind) => {
  let t: TestPlatform;
  let step: number;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { env: { RUNTIME: "none" } });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function clock(s: number) {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(at(s));
  }
  function freezeNow() {
    step = Math.floor(Date.now() / STEP_MS) + 1;
    clock(step);
  }
  const idOf = async (u: TestUser) => (await t.platform.db.selectFrom("users").select("id").where("username", "=", u.username).executeTakeFirstOrThrow()).id;
  const mailsSettled = async () => {
    await t.platform.accounts.mailsSettled();
    await t.platform.account.emailChange.settled();
  };

  /** Turns 2FA on for the signed-in `token` at the current step; the secret and recovery codes. */
  async function enrol(u: TestUser, token: string, s = step): Promise<{ secret: string; codes: string[] }> {
    const setup = await t.call("POST", "/auth/2fa/setup", { token, body: { current_password: u.password } });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const { secret } = setup.body;
    const on = await t.call("POST", "/auth/2fa/verify", { token, body: { token: code(secret, s), secret } });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    await mailsSettled(); // the "2FA is on" mail is written before the test reads newer ones
    return { secret, codes: on.body.recovery_codes };
  }

  const passwordLogin = (u: TestUser, ip = freshIp()) => t.call("POST", "/auth/login", { body: { username_or_email: u.username, password: u.password }, ip });
  async function mfaToken(u: TestUser): Promise<string> {
    const res = await passwordLogin(u);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.mfa_required).toBe(true);
    return res.body.mfa_token;
  }
  /** A whole new sign-in with the password and a code of step `s`: its token pair. */
  async function signInWith2fa(u: TestUser, secret: string, s: number) {
    const res = await t.call("POST", "/auth/login/2fa", { body: { mfa_token: await mfaToken(u), code: code(secret, s) }, ip: freshIp() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { access_token: string; refresh_token: string };
  }
  const secondStep = (body: Record<string, unknown>) => t.call("POST", "/auth/login/2fa", { body, ip: freshIp() });

  describe("enrolment needs the password", () => {
    it("a stolen session alone cannot turn 2FA on: no password, or a wrong one, is refused", async () => {
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      expectError(await t.call("POST", "/auth/2fa/setup", { token }), 400, "Confirm with your current password to turn on two-factor authentication");
      expectError(await t.call("POST", "/auth/2fa/setup", { token, body: {} }), 400, "Confirm with your current password to turn on two-factor authentication");
      expectError(await t.call("POST", "/auth/2fa/setup", { token, body: { current_password: "not the password" } }), 400, "Current password is incorrect");
      // No secret was made, so none can be enabled.
      const row = await t.platform.db
        .selectFrom("users")
        .select(["totp_secret", "totp_enabled"])
        .where("id", "=", await idOf(u))
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ totp_secret: null, totp_enabled: 0 });
      const ok = await t.call("POST", "/auth/2fa/setup", { token, body: { current_password: u.password } });
      expect(ok.status).toBe(200);
      expect(ok.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    });

    it("password guesses at set-up are limited like every step-up", async () => {
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      const answers = [];
      for (let i = 0; i < 11; i++) answers.push((await t.call("POST", "/auth/2fa/setup", { token, body: { current_password: `guess ${i}` } })).status);
      expect(answers.slice(0, 10)).toEqual(Array(10).fill(400));
      expect(answers[10]).toBe(429);
    });

    it("an account without a password (GitHub or Google) enrols with its session", async () => {
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      await t.platform.db
        .updateTable("users")
        .set({ password_hash: null, oauth_provider: "github" })
        .where("id", "=", await idOf(u))
        .execute();
      expect((await t.call("POST", "/auth/2fa/setup", { token })).status).toBe(200);
    });
  });

  describe("a fresh factor is no step-up", () => {
    it("a factor added in this sign-in confirms no e-mail change, key change or deletion, not even 24 hours later; a later sign-in may use it", async () => {
      freezeNow();
      const u = await t.registerVerified();
      const first = await t.login(u);
      const token = first.access_token;
      const key = makeSshKey(`k${++keys}`, "ed25519", { dir: keyDir });
      expect((await putSshKey((m, p, b) => t.call(m, p, { token, body: b }), key.file)).status).toBe(200);
      const { secret } = await enrol(u, token);

      // The review's exploit: 30 s later, the new factor's code as the step-up.
      clock(step + 1);
      const newEmail = `thief_${step}@example.test`;
      expectError(await t.call("POST", "/users/me/email", { token, body: { new_email: newEmail, code: code(secret, step + 1) } }), 400, FRESH_USE_PASSWORD);
      // The sign-in comes from the access token, never from the body.
      expectError(
        await t.call("POST", "/users/me/email", { token, body: { new_email: newEmail, code: code(secret, step + 1), session: "another-sign-in", sid: "x" } }),
        400,
        FRESH_USE_PASSWORD,
      );
      const other = makeSshKey(`k${++keys}`, "ed25519", { dir: keyDir });
      expectError(
        await putSshKey((m, p, b) => t.call(m, p, { token, body: b }), other.file, { extra: { code: code(secret, step + 1) } }),
        400,
        FRESH_USE_PASSWORD,
      );
      expectError(await t.call("DELETE", "/users/me/ssh-key", { token, body: { code: code(secret, step + 1) } }), 400, FRESH_USE_PASSWORD);
      expectError(await t.call("DELETE", "/users/me", { token, body: { code: code(secret, step + 1) } }), 400, FRESH_USE_PASSWORD);
      // Nothing moved: no link to the new address, the same key, the account still here.
      await mailsSettled();
      expect(t.mails(newEmail)).toHaveLength(0);
      const me = await t.call("GET", "/users/me", { token });
      expect(me.body).toMatchObject({ email: u.email, has_ssh_key: true, ssh_key_fingerprint: key.fingerprint });
      // The password still works as the step-up.
      expect((await t.call("POST", "/users/me/email", { token, body: { new_email: `owner_${step}@example.test`, current_password: u.password } })).status).toBe(
        202,
      );

      // The status says so.
      const status = (await t.call("GET", "/auth/2fa", { token })).body;
      expect(status).toMatchObject({ enabled: true, enrolled_in_this_sign_in: true, recovery_codes_left: 10, removal_at: null });
      expect(status.step_up_from - status.enabled_at).toBe(24 * 3600);

      // 25 hours later the same sign-in (its refresh token keeps it) still cannot use it...
      const later = step + 25 * HOUR_STEPS;
      clock(later);
      const refreshed = await t.call("POST", "/auth/refresh", { body: { refresh_token: first.refresh_token } });
      expect(refreshed.status).toBe(200);
      expectError(
        await t.call("POST", "/users/me/email", { token: refreshed.body.access_token, body: { new_email: newEmail, code: code(secret, later) } }),
        400,
        FRESH_USE_PASSWORD,
      );
      // ...but a new sign-in with the factor can.
      const second = await signInWith2fa(u, secret, later);
      expect((await t.call("GET", "/auth/2fa", { token: second.access_token })).body.enrolled_in_this_sign_in).toBe(false);
      clock(later + 1);
      expect(
        (await t.call("POST", "/users/me/email", { token: second.access_token, body: { new_email: `ok_${step}@example.test`, code: code(secret, later + 1) } }))
          .status,
      ).toBe(202);
    });

    it("a factor under 24 hours old confirms nothing, even from another sign-in", async () => {
      freezeNow();
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      const { secret } = await enrol(u, token);
      const other = await signInWith2fa(u, secret, step + 1);
      clock(step + 2);
      expectError(await t.call("DELETE", "/users/me", { token: other.access_token, body: { code: code(secret, step + 2) } }), 400, FRESH_USE_PASSWORD);
      clock(step + 23 * HOUR_STEPS);
      const third = await signInWith2fa(u, secret, step + 23 * HOUR_STEPS);
      clock(step + 23 * HOUR_STEPS + 1);
      expectError(
        await t.call("DELETE", "/users/me", { token: third.access_token, body: { code: code(secret, step + 23 * HOUR_STEPS + 1) } }),
        400,
        FRESH_USE_PASSWORD,
      );
      expect((await t.call("GET", "/users/me", { token: third.access_token })).status).toBe(200);
    });

    it("an account without a password that a session gave a factor cannot be deleted or moved from that session", async () => {
      freezeNow();
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      await t.platform.db
        .updateTable("users")
        .set({ password_hash: null, oauth_provider: "github" })
        .where("id", "=", await idOf(u))
        .execute();
      const setup = await t.call("POST", "/auth/2fa/setup", { token });
      const { secret } = setup.body;
      expect((await t.call("POST", "/auth/2fa/verify", { token, body: { token: code(secret, step), secret } })).status).toBe(200);
      clock(step + 1);
      expectError(await t.call("DELETE", "/users/me", { token, body: { code: code(secret, step + 1) } }), 400, FRESH_WAIT);
      // The username alone no longer deletes an account with 2FA on.
      expectError(await t.call("DELETE", "/users/me", { token, body: { username: u.username } }), 400, /Confirm with/);
      expectError(
        await t.call("POST", "/users/me/email", { token, body: { new_email: `x_${step}@example.test`, code: code(secret, step + 2) } }),
        400,
        FRESH_WAIT,
      );
      expect((await t.call("GET", "/users/me", { token })).status).toBe(200);
    });

    it("turning 2FA off or making new recovery codes takes a fresh factor's code (the factor itself is what changes)", async () => {
      freezeNow();
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      const { secret } = await enrol(u, token);
      clock(step + 1);
      const again = await t.call("POST", "/auth/2fa/recovery-codes", { token, body: { code: code(secret, step + 1) } });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      clock(step + 2);
      expect((await t.call("POST", "/auth/2fa/disable", { token, body: { code: code(secret, step + 2) } })).status).toBe(200);
    });
  });

  it("two parallel verifies turn 2FA on once: one set of recovery codes, and it works", async () => {
    freezeNow();
    const u = await t.registerVerified();
    const { access_token: token } = await t.login(u);
    const { secret } = (await t.call("POST", "/auth/2fa/setup", { token, body: { current_password: u.password } })).body;
    const answers = await Promise.all(
      [step - 1, step, step + 1].map((s) => t.call("POST", "/auth/2fa/verify", { token, body: { token: code(secret, s), secret } })),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect([400, 409]).toContain(a.status);
    expect(
      await t.platform.db
        .selectFrom("recovery_codes")
        .selectAll()
        .where("user_id", "=", await idOf(u))
        .execute(),
    ).toHaveLength(10);
    const res = await secondStep({ mfa_token: await mfaToken(u), recovery_code: won[0]!.body.recovery_codes[0] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  describe("recovery codes", () => {
    it("are ten, shown once at enrolment, kept hashed, and each signs in once", async () => {
      freezeNow();
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      const { codes } = await enrol(u, token);
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const c of codes) expect(c).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
      // Stored as hashes only: no code, with or without its dashes, is in the table.
      const rows = await t.platform.db
        .selectFrom("recovery_codes")
        .selectAll()
        .where("user_id", "=", await idOf(u))
        .execute();
      expect(rows).toHaveLength(10);
      const stored = JSON.stringify(rows);
      for (const c of codes) {
        expect(stored).not.toContain(c);
        expect(stored).not.toContain(c.replace(/-/g, ""));
      }
      // Never shown again: not in the status, the user view or the export.
      for (const path of ["/auth/2fa", "/users/me", "/users/me/export"]) {
        const text = JSON.stringify((await t.call("GET", path, { token })).body);
        for (const c of codes) expect(text).not.toContain(c.replace(/-/g, "").slice(0, 8));
      }

      // Typed as printed, in capitals without dashes, or with spaces: one code, one sign-in.
      const typed = codes[0]!.toUpperCase().replace(/-/g, " ");
      const signedIn = await secondStep({ mfa_token: await mfaToken(u), recovery_code: typed });
      expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
      expect(signedIn.body).toMatchObject({ mfa_required: false, user: { username: u.username } });
      expectError(await secondStep({ mfa_token: await mfaToken(u), recovery_code: codes[0] }), 401, "Invalid recovery code");
      expect((await t.call("GET", "/auth/2fa", { token })).body.recovery_codes_left).toBe(9);
      await mailsSettled();
      const mail = t.mail(u.email);
      expect(mail.subject).toBe("A recovery code was used to sign in to your faultline account");
      expect(mail.text).toContain("9 of them are left");
      expect(mail.text).not.toContain(codes[0]!);
      // Another user's code is not this user's (the hash is salted with the account).
      const v = await t.registerVerified();
      const vToken = (await t.login(v)).access_token;
      await enrol(v, vToken);
      expectError(await secondStep({ mfa_token: await mfaToken(v), recovery_code: codes[1] }), 401, "Invalid recovery code");
    });

    it("one code used by parallel sign-ins signs in once", async () => {
      freezeNow();
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      const { codes } = await enrol(u, token);
      const tokens = await Promise.all(Array.from({ length: 8 }, () => mfaToken(u)));
      const answers = await Promise.all(tokens.map((mfa_token) => secondStep({ mfa_token, recovery_code: codes[3] })));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of answers.filter((a) => a.status !== 200)) expectError(r, 401, "Invalid recovery code");
    });

    it("new codes need the step-up and end the old ones; a recovery code turns 2FA off", async () => {
      freezeNow();
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      const { codes } = await enrol(u, token);
      expectError(
        await t.call("POST", "/auth/2fa/recovery-codes", { token, body: {} }),
        400,
        "Confirm with your current password or a code from your authenticator app",
      );
      expectError(await t.call("POST", "/auth/2fa/recovery-codes", { token, body: { current_password: "wrong one" } }), 400, "Current password is incorrect");
      expectError(
        await t.call("POST", "/auth/2fa/recovery-codes", { token, body: { recovery_code: "not-a-code" } }),
        400,
        /recovery_code: must be a recovery code/,
      );
      const fresh = await t.call("POST", "/auth/2fa/recovery-codes", { token, body: { current_password: u.password } });
      expect(fresh.status).toBe(200);
      const newCodes: string[] = fresh.body.recovery_codes;
      expect(newCodes).toHaveLength(10);
      expect(newCodes.some((c) => codes.includes(c))).toBe(false);
      await mailsSettled();
      expect(t.mail(u.email).subject).toBe("New recovery codes for your faultline account");
      expectError(await secondStep({ mfa_token: await mfaToken(u), recovery_code: codes[0] }), 401, "Invalid recovery code");
      // An old code cannot turn 2FA off; a new one can (once).
      expectError(await t.call("POST", "/auth/2fa/disable", { token, body: { recovery_code: codes[1] } }), 400, "Invalid recovery code");
      const off = await t.call("POST", "/auth/2fa/disable", { token, body: { recovery_code: newCodes[0] } });
      expect(off.status, JSON.stringify(off.body)).toBe(200);
      // Turning it off removed the codes with the secret.
      expect(
        await t.platform.db
          .selectFrom("recovery_codes")
          .selectAll()
          .where("user_id", "=", await idOf(u))
          .execute(),
      ).toHaveLength(0);
      expect((await passwordLogin(u)).body.mfa_required).toBe(false);
    });

    it("a recovery code is no step-up for an e-mail change or a deletion", async () => {
      freezeNow();
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      const { codes } = await enrol(u, token);
      // The field is not part of those requests: what is left is no proof at all.
      expectError(
        await t.call("DELETE", "/users/me", { token, body: { recovery_code: codes[0] } }),
        400,
        "Confirm with your current password or a code from your authenticator app",
      );
      expectError(
        await t.call("POST", "/users/me/email", { token, body: { new_email: `rc_${step}@example.test`, recovery_code: codes[0] } }),
        400,
        "Confirm with your current password or a code from your authenticator app",
      );
    });

    it("the second step wants a code or a recovery code, well formed", async () => {
      const mfa_token = "whatever";
      expectError(await secondStep({ mfa_token }), 400, /code: is required/);
      expectError(await secondStep({ mfa_token, recovery_code: "abc" }), 400, /recovery_code: must be a recovery code/);
      expectError(await secondStep({ mfa_token, recovery_code: "x".repeat(65) }), 400, /recovery_code/);
      expectError(await secondStep({ mfa_token, recovery_code: "aaaa-aaaa-aaaa-aaaa" }), 401);
    });
  });

  describe("mails on 2FA changes", () => {
    it("tells the owner when 2FA goes on and off", async () => {
      freezeNow();
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      await enrol(u, token);
      await mailsSettled();
      let mail = t.mail(u.email);
      expect(mail.subject).toBe("Two-factor authentication is on for your faultline account");
      expect(mail.text).toContain("If this was not you, change your password now");
      expect((await t.call("POST", "/auth/2fa/disable", { token, body: { current_password: u.password } })).status).toBe(200);
      await mailsSettled();
      mail = t.mail(u.email);
      expect(mail.subject).toBe("Two-factor authentication is off for your faultline account");
    });
  });

  describe("lost authenticator", () => {
    /** Asks for the link from the second step of a sign-in; the link's token. */
    async function askForLink(u: TestUser): Promise<string> {
      const res = await t.call("POST", "/auth/2fa/removal", { body: { mfa_token: await mfaToken(u) } });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      await mailsSettled();
      const mail = t.mail(u.email);
      expect(mail.subject).toBe("Turn off two-factor authentication on your faultline account");
      return linkToken(mail, "/login/2fa/recover");
    }

    it("mails a link; following it turns 2FA off three days later, not before", async () => {
      freezeNow();
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      await enrol(u, token);
      const link = await askForLink(u);
      const confirmed = await t.call("POST", "/auth/2fa/removal/confirm", { body: { token: link } });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      const removalAt = Math.floor(at(step) / 1000) + 3 * 24 * 3600;
      expect(confirmed.body.removal_at).toBe(removalAt);
      expect(confirmed.body.message).toMatch(/^Two-factor authentication will be turned off on /);
      await mailsSettled();
      expect(t.mail(u.email).subject).toBe("Two-factor authentication on your faultline account will be turned off");
      // The link works once.
      expectError(
        await t.call("POST", "/auth/2fa/removal/confirm", { body: { token: link } }),
        400,
        "This link is invalid or has expired. Ask for a new one at sign-in.",
      );
      expect((await t.call("GET", "/auth/2fa", { token })).body.removal_at).toBe(removalAt);

      // Two days later: the code is still asked for.
      clock(step + 48 * HOUR_STEPS);
      expect((await passwordLogin(u)).body.mfa_required).toBe(true);
      // Asking again does not bring the date closer.
      const again = await askForLink(u);
      expect((await t.call("POST", "/auth/2fa/removal/confirm", { body: { token: again } })).body.removal_at).toBe(removalAt);
      // After three days: the password alone signs in, 2FA is off, the owner is told.
      clock(step + 72 * HOUR_STEPS + 1);
      const res = await passwordLogin(u);
      expect(res.body.mfa_required, JSON.stringify(res.body)).toBe(false);
      expect(res.body.user.totp_enabled).toBe(false);
      await mailsSettled();
      const mail = t.mail(u.email);
      expect(mail.subject).toBe("Two-factor authentication is off for your faultline account");
      expect(mail.text).toContain("lost authenticator");
      const audit = await t.platform.db
        .selectFrom("audit_log")
        .select(["action", "detail"])
        .where("actor_id", "=", await idOf(u))
        .orderBy("id")
        .execute();
      expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["auth.2fa_removal_requested", "auth.2fa_disabled"]));
    });

    it("a sign-in with the factor cancels the removal", async () => {
      freezeNow();
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      const { secret } = await enrol(u, token);
      const link = await askForLink(u);
      expect((await t.call("POST", "/auth/2fa/removal/confirm", { body: { token: link } })).status).toBe(200);
      await signInWith2fa(u, secret, step + 1);
      expect((await t.call("GET", "/auth/2fa", { token })).body.removal_at).toBeNull();
      await mailsSettled();
      expect(t.mail(u.email).subject).toBe("Two-factor authentication stays on for your faultline account");
      clock(step + 73 * HOUR_STEPS);
      expect((await passwordLogin(u)).body.mfa_required).toBe(true);
    });

    it("answers the same for an unverified address but mails nothing; needs a live sign-in attempt; is limited", async () => {
      freezeNow();
      const u = await t.register(); // never verified
      const { access_token: token } = await t.login(u);
      await enrol(u, token);
      await mailsSettled();
      const before = t.mails(u.email).length;
      const res = await t.call("POST", "/auth/2fa/removal", { body: { mfa_token: await mfaToken(u) } });
      expect(res.status).toBe(202);
      expect(res.body.message).toBe(
        "If this account's e-mail address is verified, a link to turn off two-factor authentication is on its way to it. It works once, for one hour.",
      );
      await mailsSettled();
      expect(t.mails(u.email)).toHaveLength(before);
      expectError(
        await t.call("POST", "/auth/2fa/removal", { body: { mfa_token: "never-issued" } }),
        401,
        "The sign-in attempt expired. Please sign in again.",
      );
      expectError(await t.call("POST", "/auth/2fa/removal", { body: {} }), 400, /mfa_token/);
      // Three a day per account.
      for (let i = 0; i < 2; i++) expect((await t.call("POST", "/auth/2fa/removal", { body: { mfa_token: await mfaToken(u) } })).status).toBe(202);
      expectError(await t.call("POST", "/auth/2fa/removal", { body: { mfa_token: await mfaToken(u) } }), 429);
    });

    it("the link dies after an hour, and when the password changes", async () => {
      freezeNow();
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      const { secret } = await enrol(u, token);
      const first = await askForLink(u);
      const later = step + HOUR_STEPS + 1;
      clock(later);
      expectError(
        await t.call("POST", "/auth/2fa/removal/confirm", { body: { token: first } }),
        400,
        "This link is invalid or has expired. Ask for a new one at sign-in.",
      );
      const second = await askForLink(u);
      const signedIn = await signInWith2fa(u, secret, later);
      const changed = await t.call("PUT", "/users/me/password", {
        token: signedIn.access_token,
        body: { current_password: u.password, new_password: "a brand new password" },
      });
      expect(changed.status).toBe(200);
      expectError(
        await t.call("POST", "/auth/2fa/removal/confirm", { body: { token: second } }),
        400,
        "This link is invalid or has expired. Ask for a new one at sign-in.",
      );
    });
  });

  describe("an admin resets 2FA", () => {
    it("turns it off at once, mails the user, writes who did it to the audit log; admins only", async () => {
      freezeNow();
      const a = await t.registerVerified();
      await t.platform.accounts.setAdmin(a.username, true);
      const admin = (await t.login(a)).access_token;
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      await enrol(u, token);
      await mailsSettled();
      const id = await idOf(u);
      expectError(await t.call("POST", `/admin/users/${id}/2fa/reset`, { token }), 403);
      expectError(await t.call("POST", `/admin/users/${id}/2fa/reset`), 401);
      const listed = await t.call("GET", `/admin/users?search=${u.username}`, { token: admin });
      expect(listed.body.users[0]).toMatchObject({ username: u.username, totp_enabled: true });
      const res = await t.call("POST", `/admin/users/${id}/2fa/reset`, { token: admin });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ username: u.username, totp_enabled: false });
      expect((await passwordLogin(u)).body.mfa_required).toBe(false);
      expect(await t.platform.db.selectFrom("recovery_codes").selectAll().where("user_id", "=", id).execute()).toHaveLength(0);
      await mailsSettled();
      expect(
        t
          .mails(u.email)
          .filter((m) => m.subject === "Two-factor authentication is off for your faultline account")
          .at(-1)?.text,
      ).toContain("An administrator reset it");
      const entry = (await t.call("GET", "/admin/audit?action=admin.user_2fa_reset", { token: admin })).body.entries[0];
      expect(entry).toMatchObject({ actor: a.username, action: "admin.user_2fa_reset", target: u.username });
      expectError(await t.call("POST", `/admin/users/${id}/2fa/reset`, { token: admin }), 409, "Two-factor authentication is not enabled for this user.");
      expectError(await t.call("POST", "/admin/users/00000000-0000-4000-8000-000000000000/2fa/reset", { token: admin }), 404);
    });
  });
});
