// TOTP two-factor authentication: set-up, enabling, the second login step, replay, drift,
// attempt limits, disabling (only with the current password or a current code). Codes are
// computed with the otpauth package from the secret the API shows, at explicit instants; the
// clock (Date only) is frozen so steps are exact.
import * as OTPAuth from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestPlatform, DATABASES, freshIp, type TestPlatform, type TestUser } from "../support/platform.ts";
import { expectError, expectNoSecrets } from "./assertions.ts";

const STEP_MS = 30_000;
/** An instant 10 s into time step `step`. */
const at = (step: number) => step * STEP_MS + 10_000;

function code(secret: string, step: number): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: at(step),
  });
}

/** A 6-digit code valid for none of the steps around `step`. */
function wrongCode(secret: string, step: number): string {
  const near = new Set([-2, -1, 0, 1, 2].map((d) => code(secret, step + d)));
  let n = Number(code(secret, step));
  do n = (n + 7919) % 1_000_000;
  while (near.has(String(n).padStart(6, "0")));
  return String(n).padStart(6, "0");
}

describe.each(DATABASES)("two-factor authentication on %s", (kind) => {
  let t: TestPlatform;
  let step: number;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Freezes Date at step `s`. */
  function clock(s: number) {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(at(s));
  }
  function freezeNow() {
    step = Math.floor(Date.now() / STEP_MS) + 1;
    clock(step);
  }

  const passwordLogin = (u: TestUser) => t.call("POST", "/auth/login", { body: { username_or_email: u.username, password: u.password }, ip: freshIp() });
  const secondStep = (mfa_token: string, c: string, ip?: string) => t.call("POST", "/auth/login/2fa", { body: { mfa_token, code: c }, ip });

  async function mfaToken(u: TestUser): Promise<string> {
    const res = await passwordLogin(u);
    expect(res.status).toBe(200);
    expect(res.body.mfa_required).toBe(true);
    return res.body.mfa_token;
  }

  /** A user with 2FA on (enabled with the code of the current step); returns the secret. */
  async function userWith2fa(): Promise<{ u: TestUser; secret: string; access: string }> {
    const u = await t.register();
    const { access_token } = await t.login(u);
    const setup = await t.call("POST", "/auth/2fa/setup", { token: access_token, body: { current_password: u.password } });
    expect(setup.status).toBe(200);
    const { secret } = setup.body;
    const res = await t.call("POST", "/auth/2fa/verify", { token: access_token, body: { token: code(secret, step), secret } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { u, secret, access: access_token };
  }

  it("set-up shows a secret, its otpauth URI and a PNG QR code, and enables nothing yet", async () => {
    const u = await t.register();
    const { access_token } = await t.login(u);
    const res = await t.call("POST", "/auth/2fa/setup", { token: access_token, body: { current_password: u.password } });
    expect(res.status).toBe(200);
    const { secret, qr_code_url, otpauth_url } = res.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/); // 160 bits, base32
    expect(qr_code_url).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(qr_code_url.slice("data:image/png;base64,".length), "base64");
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const uri = OTPAuth.URI.parse(otpauth_url);
    expect(uri).toBeInstanceOf(OTPAuth.TOTP);
    expect(uri.secret.base32).toBe(secret);
    expect(uri.issuer).toBe("faultline");
    expect(uri.label).toBe(u.username);
    expect(uri.digits).toBe(6);
    expect((uri as OTPAuth.TOTP).period).toBe(30);

    expect((await t.call("GET", "/users/me", { token: access_token })).body.totp_enabled).toBe(false);
    expect((await passwordLogin(u)).body.mfa_required).toBe(false);
  });

  it("refuses to enable with a wrong code, a wrong secret or a malformed code", async () => {
    freezeNow();
    const u = await t.register();
    const { access_token } = await t.login(u);
    const { secret } = (await t.call("POST", "/auth/2fa/setup", { token: access_token, body: { current_password: u.password } })).body;
    const verify = (body: unknown) => t.call("POST", "/auth/2fa/verify", { token: access_token, body });

    expectError(await verify({ token: wrongCode(secret, step), secret }), 400, "Invalid verification code");
    expectError(await verify({ token: code(secret, step - 2), secret }), 400, "Invalid verification code");
    const otherSecret = new OTPAuth.Secret({ size: 20 }).base32;
    expectError(await verify({ token: code(otherSecret, step), secret: otherSecret }), 400);
    expectError(await verify({ token: "12345", secret }), 400, /6 digits/);
    expectError(await verify({ token: "abcdef", secret }), 400, /6 digits/);
    expectError(await verify({ secret }), 400, /token/);
    expect((await t.call("GET", "/users/me", { token: access_token })).body.totp_enabled).toBe(false);
  });

  it("enables with a code computed from the secret; then login asks for the code and completes with it", async () => {
    freezeNow();
    const u = await t.register();
    const { access_token } = await t.login(u);
    const { secret } = (await t.call("POST", "/auth/2fa/setup", { token: access_token, body: { current_password: u.password } })).body;
    const enabled = await t.call("POST", "/auth/2fa/verify", { token: access_token, body: { token: code(secret, step), secret } });
    expect(enabled.status).toBe(200);
    expect(enabled.body.enabled).toBe(true);
    const me = (await t.call("GET", "/users/me", { token: access_token })).body;
    expect(me.totp_enabled).toBe(true);
    expectNoSecrets(me, secret);
    expectError(await t.call("POST", "/auth/2fa/setup", { token: access_token, body: { current_password: u.password } }), 409);

    clock(step + 1);
    const first = await passwordLogin(u);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ mfa_required: true, expires_in: 300 });
    expect(typeof first.body.mfa_token).toBe("string");
    expect(first.body.access_token).toBeUndefined();
    expect(first.body.refresh_token).toBeUndefined();
    expect(first.body.user).toBeUndefined();

    const done = await secondStep(first.body.mfa_token, code(secret, step + 1));
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ mfa_required: false, user: { username: u.username, totp_enabled: true } });
    expect((await t.call("GET", "/auth/validate", { token: done.body.access_token })).status).toBe(200);
    expect((await t.call("POST", "/auth/refresh", { body: { refresh_token: done.body.refresh_token } })).status).toBe(200);

    // The challenge token is spent.
    clock(step + 2);
    expectError(await secondStep(first.body.mfa_token, code(secret, step + 2)), 401);
    // A wrong password still answers the plain 401, with no challenge.
    const wrong = await t.call("POST", "/auth/login", { body: { username_or_email: u.username, password: "nope nope" }, ip: freshIp() });
    expectError(wrong, 401, "Incorrect username or password");
    expect(wrong.body.mfa_token).toBeUndefined();
  });

  it("accepts each code once only, one step of drift either way, and not two", async () => {
    freezeNow();
    const { u, secret } = await userWith2fa();

    // The code that enabled 2FA cannot sign in (same step).
    let mfa = await mfaToken(u);
    expectError(await secondStep(mfa, code(secret, step)), 401, "Invalid verification code");

    // Three steps later: two steps back is refused, one step back (30 s) is accepted.
    clock(step + 3);
    mfa = await mfaToken(u);
    expectError(await secondStep(mfa, code(secret, step + 1)), 401, "Invalid verification code");
    expect((await secondStep(mfa, code(secret, step + 2))).status).toBe(200);

    // Replay of that code on a fresh challenge is refused; one step ahead is accepted.
    mfa = await mfaToken(u);
    expectError(await secondStep(mfa, code(secret, step + 2)), 401, "Invalid verification code");
    expect((await secondStep(mfa, code(secret, step + 4))).status).toBe(200);

    // Two steps ahead is refused, and so is the current step now: it is older than the last used.
    mfa = await mfaToken(u);
    expectError(await secondStep(mfa, code(secret, step + 5)), 401, "Invalid verification code");
    expectError(await secondStep(mfa, code(secret, step + 3)), 401, "Invalid verification code");
  });

  it("ends a challenge after 5 wrong codes, and limits codes per account", async () => {
    freezeNow();
    const { u, secret } = await userWith2fa(); // 1 code used
    clock(step + 1);
    const mfa = await mfaToken(u);
    for (let i = 0; i < 5; i++) expectError(await secondStep(mfa, wrongCode(secret, step + 1)), 401, "Invalid verification code");
    // Even the right code no longer opens this challenge.
    const dead = await secondStep(mfa, code(secret, step + 1));
    expectError(dead, 401);
    expect(dead.body.detail).not.toBe("Invalid verification code");

    // A new challenge works, within the allowance of codes per (account, address): 10 per 15
    // minutes at sign-in (codes given while signed in, like the one that enabled 2FA, are apart).
    const next = await mfaToken(u);
    for (let i = 0; i < 5; i++) expectError(await secondStep(next, wrongCode(secret, step + 1)), 401, "Invalid verification code");
    const limited = await secondStep(await mfaToken(u), code(secret, step + 1)); // 11th code from this address
    expectError(limited, 429);
    expect(limited.body.retry_after).toBeGreaterThan(0);
    // The allowance is the address's for this account, not the challenge's. (Its window's end
    // is unit-tested in server/core/ratelimit.test.ts: the limiter keeps its own clock.)
    expectError(await secondStep(await mfaToken(u), code(secret, step + 1)), 429);
    // ...and not the account's: the owner, from another address, signs in.
    const owner = await secondStep(await mfaToken(u), code(secret, step + 1), freshIp());
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
  });

  it("lets an attacker who knows the password not lock the owner out of the second step", async () => {
    freezeNow();
    const { u, secret } = await userWith2fa();
    clock(step + 1);
    // The owner completed a sign-in from home once: that address is known to the account.
    const home = freshIp();
    expect((await secondStep(await mfaToken(u), code(secret, step + 1), home)).status).toBe(200);
    clock(step + 2);
    // An attacker with the password sends wrong codes from many addresses, up to the
    // account-wide ceiling of 30 per 15 minutes; beyond it, new addresses are refused.
    let refused = 0;
    for (let a = 0; a < 8; a++) {
      const ip = freshIp();
      for (let c = 0; c < 5; c++) {
        const res = await secondStep(await mfaToken(u), wrongCode(secret, step + 2), ip);
        if (res.status === 429) refused++;
        else expectError(res, 401, "Invalid verification code");
      }
    }
    expect(refused).toBe(40 - 30);
    expectError(await secondStep(await mfaToken(u), code(secret, step + 2), freshIp()), 429);
    // The owner, from the known address, still signs in.
    const owner = await secondStep(await mfaToken(u), code(secret, step + 2), home);
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
  });

  it("takes each attempt from a challenge atomically: parallel guesses get 5 looks, not more", async () => {
    freezeNow();
    const { u, secret } = await userWith2fa();
    clock(step + 1);
    const mfa = await mfaToken(u);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => secondStep(mfa, wrongCode(secret, step + 1 + (i % 2)), freshIp())));
    const looked = answers.filter((r) => r.body.detail === "Invalid verification code");
    expect(looked).toHaveLength(5);
    for (const r of answers) expectError(r, 401);
    const row = await t.platform.db
      .selectFrom("verifications")
      .select("attempts")
      .where("user_id", "=", u.user.id)
      .where("purpose", "=", "login-2fa")
      .execute();
    expect(row.map((r) => r.attempts)).toContain(5);
  });

  it("expires the challenge after 5 minutes and never takes it as an e-mail token", async () => {
    freezeNow();
    const { u, secret } = await userWith2fa();
    clock(step + 1);
    const mfa = await mfaToken(u);
    expectError(await t.call("POST", "/auth/verify-email", { body: { token: mfa } }), 400);
    clock(step + 12); // 5.5 minutes later
    expectError(await secondStep(mfa, code(secret, step + 12)), 401);
  });

  it("validates the second step's input", async () => {
    expectError(await secondStep("whatever", "123"), 400, /6 digits/);
    expectError(await t.call("POST", "/auth/login/2fa", { body: { code: "123456" } }), 400, /mfa_token/);
    expectError(await secondStep("never-issued", "123456"), 401);
  });

  it("disables with the current password: login needs the password only again, and set-up can start over", async () => {
    freezeNow();
    const { u, access } = await userWith2fa();
    const res = await t.call("POST", "/auth/2fa/disable", { token: access, body: { current_password: u.password } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.enabled).toBe(false);
    expect((await t.call("GET", "/users/me", { token: access })).body.totp_enabled).toBe(false);
    const again = await passwordLogin(u);
    expect(again.body.mfa_required).toBe(false);
    expect(typeof again.body.access_token).toBe("string");
    expect((await t.call("POST", "/auth/2fa/setup", { token: access, body: { current_password: u.password } })).status).toBe(200);
  });

  it("refuses to disable without the password or a code, or with a wrong one (step-up)", async () => {
    freezeNow();
    const { secret, access } = await userWith2fa();
    const disable = (body?: unknown) => t.call("POST", "/auth/2fa/disable", { token: access, body });
    // What a stolen session alone could send.
    expectError(await disable(), 400, "Confirm with your current password or a code from your authenticator app");
    expectError(await disable({}), 400, "Confirm with your current password or a code from your authenticator app");
    expectError(await disable({ current_password: "" }), 400, /current_password/);
    expectError(await disable({ current_password: "not the password" }), 400, "Current password is incorrect");
    expectError(await disable({ code: "12345" }), 400, /code: must be 6 digits/);
    expectError(await disable({ code: wrongCode(secret, step + 1) }), 400, "Invalid verification code");
    // The code that enabled 2FA is spent.
    expectError(await disable({ code: code(secret, step) }), 400, "Invalid verification code");
    expect((await t.call("GET", "/users/me", { token: access })).body.totp_enabled).toBe(true);
  });

  it("disables with a current code instead of the password, once 2FA is on only", async () => {
    freezeNow();
    const { u, secret, access } = await userWith2fa();
    clock(step + 1);
    const res = await t.call("POST", "/auth/2fa/disable", { token: access, body: { code: code(secret, step + 1) } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await passwordLogin(u)).body.mfa_required).toBe(false);
    // Nothing to turn off any more.
    expectError(await t.call("POST", "/auth/2fa/disable", { token: access, body: { current_password: u.password } }), 409);
  });

  it("needs a signed-in user for set-up, verify and disable", async () => {
    expectError(await t.call("POST", "/auth/2fa/setup"), 401);
    expectError(await t.call("POST", "/auth/2fa/verify", { body: { token: "123456", secret: "A".repeat(32) } }), 401);
    expectError(await t.call("POST", "/auth/2fa/disable", { token: "bogus", body: { current_password: "whatever" } }), 401);
  });
});
