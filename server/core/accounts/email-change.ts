// Changing the account's e-mail address: behind the step-up, a link goes to the NEW address and
// the old one keeps working until that link is followed (a typo cannot lock anyone out); the old
// address is told at once, so a stranger with a stolen session cannot move the account quietly.
// The answer is the same whether or not another account has the new address, and comes as fast:
// the mails go after the answer (mail-later.ts). Confirming the new address ends the
// links mailed to the old one (password resets, lost-authenticator links).
import type { EmailChanged, Message } from "#shared/contract/index.ts";
import { EMAIL_VERIFICATION_HOURS } from "#shared/rules.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import { type Mailer, maskAddress } from "#server/mail/mailer.ts";
import type { Logger } from "#server/logger.ts";
import type { Audit } from "#server/core/audit.ts";
import { badRequest, conflict, unauthorized } from "#server/core/errors.ts";
import type { RateLimiter } from "#server/core/ratelimit.ts";
import { hashToken, randomToken } from "#server/core/secrets.ts";
import type { UserRow } from "#server/core/users.ts";
import { forgetMailedLinks, type StepUp } from "./context.ts";
import type { Accounts } from "./index.ts";
import { createMailLater } from "./mail-later.ts";

export const EMAIL_CHANGE_PER_USER = { max: 5, windowSeconds: 3600 };
export const EMAIL_CHANGE_SENT = "A confirmation link is on its way to the new address. Your current address stays in use until you follow it.";
export const EMAIL_CHANGE_INVALID = "This confirmation link is invalid or has expired.";

export interface EmailChangeDeps {
  db: Db;
  mailer: Mailer;
  limiter: RateLimiter;
  publicUrl: URL;
  accounts: Pick<Accounts, "confirmIdentity" | "view">;
  audit?: Pick<Audit, "record">;
  now?: () => number;
  log?: Pick<Logger, "error">;
}

export function createEmailChange({ db, mailer, limiter, publicUrl, accounts, audit, now = nowSeconds, log }: EmailChangeDeps) {
  const mails = createMailLater(mailer, log);
  const byId = (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();

  /** Step-up as for the SSH key: the password or a 2FA code (from a factor another sign-in added
   *  over 24 hours ago); an OAuth-only account without 2FA has nothing to confirm with but its
   *  session. */
  async function confirm(u: UserRow, proof: StepUp) {
    if (!u.password_hash && u.totp_enabled !== 1) return;
    await accounts.confirmIdentity(u, proof);
  }

  async function requestEmailChange(userId: string, input: { new_email: string } & StepUp): Promise<Message> {
    const u = await byId(userId);
    if (!u) throw unauthorized("User no longer exists");
    const email = input.new_email.trim().toLowerCase();
    if (email === u.email.toLowerCase()) throw badRequest("new_email: is already your address");
    await limiter.consume(`email-change:${userId}`, EMAIL_CHANGE_PER_USER);
    await confirm(u, input);
    await db.deleteFrom("email_changes").where("user_id", "=", userId).execute();
    const taken = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
    if (!taken) {
      const token = randomToken();
      const t = now();
      await db
        .insertInto("email_changes")
        .values({ token_hash: hashToken(token), user_id: userId, new_email: email, expires_at: t + EMAIL_VERIFICATION_HOURS * 3600, created_at: t })
        .execute();
      const link = new URL(`/confirm-email?token=${encodeURIComponent(token)}`, publicUrl).toString();
      mails.send({
        to: email,
        subject: "Confirm your new faultline e-mail address",
        text: [
          `Hello ${u.username},`,
          "",
          "Follow this link to use this address for your faultline account:",
          "",
          link,
          "",
          `The link expires in ${EMAIL_VERIFICATION_HOURS} hours. If you did not ask for this, ignore this mail.`,
        ].join("\n"),
      });
    }
    mails.send({
      to: u.email,
      subject: "Your faultline e-mail address is being changed",
      text: [
        `Hello ${u.username},`,
        "",
        `Someone signed in to your faultline account asked to change its e-mail address to ${maskAddress(email)}.`,
        "This address stays in use until the new one is confirmed.",
        "If this was not you, change your password now and turn on two-factor authentication.",
      ].join("\n"),
    });
    await audit?.record({ action: "account.email_change_requested", actorId: userId });
    return { message: EMAIL_CHANGE_SENT };
  }

  async function confirmEmailChange(token: string): Promise<EmailChanged> {
    const hash = hashToken(token);
    const row = await db.selectFrom("email_changes").selectAll().where("token_hash", "=", hash).executeTakeFirst();
    if (!row || row.expires_at <= now()) throw badRequest(EMAIL_CHANGE_INVALID);
    const taken = await db.deleteFrom("email_changes").where("token_hash", "=", hash).executeTakeFirst();
    if (Number(taken.numDeletedRows) !== 1) throw badRequest(EMAIL_CHANGE_INVALID);
    const before = await byId(row.user_id);
    if (!before) throw badRequest(EMAIL_CHANGE_INVALID);
    try {
      await db.updateTable("users").set({ email: row.new_email, is_verified: 1, updated_at: nowSeconds() }).where("id", "=", row.user_id).execute();
    } catch (e) {
      // The unique index: another account took the address meanwhile.
      if (/unique|duplicate/i.test(String(e))) throw conflict("Another account uses this address now.");
      throw e;
    }
    await forgetMailedLinks(db, row.user_id);
    await audit?.record({ action: "account.email_changed", actorId: row.user_id });
    mails.send({
      to: before.email,
      subject: "Your faultline e-mail address was changed",
      text: [`Hello ${before.username},`, "", `Your faultline account now uses ${maskAddress(row.new_email)}. Mail will no longer come to this address.`].join(
        "\n",
      ),
    });
    return { message: "Your e-mail address was changed.", user: await accounts.view((await byId(row.user_id))!) };
  }

  return { requestEmailChange, confirmEmailChange, settled: mails.settled };
}
export type EmailChange = ReturnType<typeof createEmailChange>;
