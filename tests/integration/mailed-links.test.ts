// Mailed links and mail timing (decision 017), on SQLite and PostgreSQL through the API:
// - a password-reset link dies when the password changes (signed in, or by another reset) and
//   when the e-mail address changes (it went to the old mailbox), and a pending e-mail change
//   dies with the password;
// - mail goes after the answer: with a real SMTP server that holds every message until the test
//   lets it go, an e-mail change and turning on 2FA answer while their mails are still held (the
//   old code waited for SMTP: one send when the new address had an account, two when not, a
//   timing oracle for "has an account"), and the held mails then arrive.
import type { AddressInfo } from "node:net";
import * as OTPAuth from "otpauth";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, DATABASES, freshIp, type MailMessage, PUBLIC_URL, type TestPlatform, type TestUser, unique } from "../support/platform.ts";
import { expectError } from "./assertions.ts";

const RESET_LINK_INVALID = "This password reset link is invalid or has expired. Ask for a new one.";
const EMAIL_CHANGE_INVALID = "This confirmation link is invalid or has expired.";

function linkToken(mail: MailMessage, path: string): string {
  const m = new RegExp(`${PUBLIC_URL.replace(/[.:/]/g, "\\$&")}${path}\\?token=([^\\s"'<>]+)`).exec(mail.text);
  if (!m) throw new Error(`no ${path} link in mail to ${mail.to}:\n${mail.text}`);
  return decodeURIComponent(m[1]!);
}

describe.each(DATABASES)("mailed links die with the password and the address on %s", (kind) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { env: { RUNTIME: "none" } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A reset link for `u`, read from the outbox. */
  async function resetLink(u: TestUser): Promise<string> {
    expect((await t.call("POST", "/auth/password-reset/request", { body: { email: u.email }, ip: freshIp() })).status).toBe(202);
    await t.platform.account.passwordReset.settled();
    return linkToken(t.mail(u.email), "/reset-password");
  }
  const checkReset = async (token: string) => (await t.call("POST", "/auth/password-reset/check", { body: { token } })).body;

  it("a reset link dies when the owner changes the password", async () => {
    const u = await t.registerVerified();
    const link = await resetLink(u);
    expect(await checkReset(link)).toEqual({ valid: true });
    const { access_token: token } = await t.login(u);
    expect(
      (await t.call("PUT", "/users/me/password", { token, body: { current_password: u.password, new_password: "the owner's new password" } })).status,
    ).toBe(200);
    expect(await checkReset(link)).toEqual({ valid: false });
    expectError(await t.call("POST", "/auth/password-reset", { body: { token: link, new_password: "the thief's password" } }), 400, RESET_LINK_INVALID);
    await t.login({ username: u.username, password: "the owner's new password" });
  });

  it("a reset link dies when the e-mail address changes (it went to the old mailbox)", async () => {
    const u = await t.registerVerified();
    const link = await resetLink(u);
    const { access_token: token } = await t.login(u);
    const newEmail = `${unique("moved")}@example.test`;
    expect((await t.call("POST", "/users/me/email", { token, body: { new_email: newEmail, current_password: u.password } })).status).toBe(202);
    await t.platform.account.emailChange.settled();
    // Asking is not changing: the link still works until the new address is confirmed.
    expect(await checkReset(link)).toEqual({ valid: true });
    expect((await t.call("POST", "/users/me/email/confirm", { body: { token: linkToken(t.mail(newEmail), "/confirm-email") } })).status).toBe(200);
    expect(await checkReset(link)).toEqual({ valid: false });
    expectError(await t.call("POST", "/auth/password-reset", { body: { token: link, new_password: "the thief's password" } }), 400, RESET_LINK_INVALID);
  });

  it("a pending e-mail change dies when the password changes, by the owner or by a reset", async () => {
    for (const how of ["settings", "reset"] as const) {
      const u = await t.registerVerified();
      const { access_token: token } = await t.login(u);
      const newEmail = `${unique("pending")}@example.test`;
      expect((await t.call("POST", "/users/me/email", { token, body: { new_email: newEmail, current_password: u.password } })).status).toBe(202);
      await t.platform.account.emailChange.settled();
      const confirm = linkToken(t.mail(newEmail), "/confirm-email");
      if (how === "settings") {
        expect(
          (await t.call("PUT", "/users/me/password", { token, body: { current_password: u.password, new_password: "another new password" } })).status,
        ).toBe(200);
      } else {
        expect((await t.call("POST", "/auth/password-reset", { body: { token: await resetLink(u), new_password: "another new password" } })).status).toBe(200);
      }
      expectError(await t.call("POST", "/users/me/email/confirm", { body: { token: confirm } }), 400, EMAIL_CHANGE_INVALID);
      expect(
        (await t.call("GET", "/users/me", { token: (await t.login({ username: u.username, password: "another new password" })).access_token })).body.email,
      ).toBe(u.email);
    }
  });
});

/** A real SMTP server that, while `hold` is on, holds every message (its DATA is not answered)
 *  until released; otherwise it takes them at once. Every message is listed in `held`. */
async function startHeldSmtp() {
  const held: { subject: string; to: string; release: () => void }[] = [];
  const gate = { hold: false };
  let arrived: () => void = () => {};
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    hideSTARTTLS: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const subject = /^Subject: (.*)$/im.exec(Buffer.concat(chunks).toString("utf8"))?.[1]?.trim() ?? "";
        held.push({ subject, to: session.envelope.rcptTo[0]?.address ?? "", release: () => callback() });
        if (!gate.hold) callback();
        arrived();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    held,
    gate,
    /** Resolves once `n` messages have come. */
    async holding(n: number) {
      while (held.length < n) await new Promise<void>((resolve) => (arrived = resolve));
    },
    releaseAll: () => {
      gate.hold = false;
      for (const m of held.splice(0)) m.release();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(DATABASES)("mail after the answer on %s", (kind) => {
  let t: TestPlatform;
  let smtp: Awaited<ReturnType<typeof startHeldSmtp>>;
  beforeAll(async () => {
    smtp = await startHeldSmtp();
    t = await createTestPlatform(kind, { env: { RUNTIME: "none", SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    smtp?.releaseAll();
    await t?.close();
    await smtp?.close();
  });

  /** A verified user made straight in the database (the verification mail would be held too). */
  async function verifiedUser(): Promise<TestUser & { token: string }> {
    const username = unique("held");
    const u = { username, email: `${username}@example.test`, password: `pw-${username}-long enough` };
    const res = await t.call("POST", "/auth/register", { body: u, ip: freshIp() });
    expect(res.status).toBe(201);
    await t.platform.accounts.mailsSettled(); // its verification mail is out before a test holds mails
    await t.platform.db.updateTable("users").set({ is_verified: 1 }).where("username", "=", username).execute();
    const login = await t.call("POST", "/auth/login", { body: { username_or_email: username, password: u.password }, ip: freshIp() });
    return { ...u, user: res.body, token: login.body.access_token };
  }

  it("an e-mail change answers while the mail server holds its mails, whether or not the new address has an account", { timeout: 15_000 }, async () => {
    const owner = await verifiedUser();
    const other = await verifiedUser();
    smtp.releaseAll();
    smtp.gate.hold = true;
    const freeEmail = `${unique("free")}@example.test`;
    // The new address is free: a link to it and a notice to the old one, both held.
    const free = await t.call("POST", "/users/me/email", { token: owner.token, body: { new_email: freeEmail, current_password: owner.password } });
    expect(free.status).toBe(202);
    // Taken by another account: the same answer, only the notice.
    const taken = await t.call("POST", "/users/me/email", { token: owner.token, body: { new_email: other.email, current_password: owner.password } });
    expect(taken.status).toBe(202);
    expect(taken.body).toEqual(free.body);
    // Both answered with every mail still held; now they go.
    await smtp.holding(3);
    const mails = smtp.held.map((m) => `${m.to}: ${m.subject}`).sort();
    smtp.releaseAll();
    await t.platform.account.emailChange.settled();
    expect(mails).toEqual(
      [
        `${freeEmail}: Confirm your new faultline e-mail address`,
        `${owner.email}: Your faultline e-mail address is being changed`,
        `${owner.email}: Your faultline e-mail address is being changed`,
      ].sort(),
    );
  });

  it("registering answers while the mail server holds its mails, whether or not the address has an account", { timeout: 15_000 }, async () => {
    const owner = await verifiedUser();
    smtp.releaseAll();
    smtp.gate.hold = true;
    const name = unique("new");
    const fresh = await t.call("POST", "/auth/register", {
      body: { username: name, email: `${name}@example.test`, password: `pw-${name}-long enough` },
      ip: freshIp(),
    });
    expect(fresh.status).toBe(201);
    const again = await t.call("POST", "/auth/register", {
      body: { username: unique("dup"), email: owner.email, password: "pw-dup-long enough" },
      ip: freshIp(),
    });
    expect(again.status).toBe(201);
    // Both answered with their mails (a verification link, a notice to the owner) still held.
    await smtp.holding(2);
    expect(smtp.held.map((m) => m.subject).sort()).toEqual([
      "Someone tried to sign up to faultline with your e-mail address",
      "Verify your faultline e-mail address",
    ]);
    smtp.releaseAll();
    await t.platform.accounts.mailsSettled();
  });

  it("turning 2FA on answers while its notice is held", { timeout: 15_000 }, async () => {
    const u = await verifiedUser();
    smtp.releaseAll();
    const { secret } = (await t.call("POST", "/auth/2fa/setup", { token: u.token, body: { current_password: u.password } })).body;
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
    smtp.gate.hold = true;
    const on = await t.call("POST", "/auth/2fa/verify", { token: u.token, body: { token: code, secret } });
    expect(on.status).toBe(200);
    await smtp.holding(1);
    expect(smtp.held.map((m) => `${m.to}: ${m.subject}`)).toEqual([`${u.email.toLowerCase()}: Two-factor authentication is on for your faultline account`]);
    smtp.releaseAll();
    await t.platform.accounts.mailsSettled();
  });
});
