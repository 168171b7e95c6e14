// Forgot password: a mailed single-use link (one hour, stored as its SHA-256 like every secret),
// asked for with an address and answered the same whether or not an account has it; following
// the link sets a new password (registration's rules) and ends every sign-in of the account:
// web sessions and refresh tokens alike.
import type { Message } from "#shared/contract/index.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { Logger } from "#server/logger.ts";
import type { Mailer } from "#server/mail/mailer.ts";
import type { Audit } from "#server/core/audit.ts";
import type { CredentialEvents } from "./credentials.ts";
import { badRequest } from "#server/core/errors.ts";
import { hashPassword } from "#server/core/auth/passwords.ts";
import { addressKey, type RateLimiter } from "#server/core/ratelimit.ts";
import { hashToken, randomToken } from "#server/core/secrets.ts";
import type { TokenService } from "#server/core/auth/tokens.ts";
import type { WebSessions } from "#server/core/auth/web-sessions.ts";
import { forgetMailedLinks } from "./context.ts";

export const RESET_LINK_SECONDS = 3600;
/** Asked for by one address (IP): enough for typos, not for mailing strangers in bulk. */
export const FORGOT_PER_IP = { max: 10, windowSeconds: 3600 };
/** Links to one e-mail address, counted whether or not it has an account (the 429 says nothing). */
export const FORGOT_PER_EMAIL = { max: 3, windowSeconds: 3600 };
export const FORGOT_ANSWER = "If an account uses this address, a link to choose a new password is on its way. It works once, for one hour.";
export const RESET_LINK_INVALID = "This password reset link is invalid or has expired. Ask for a new one.";

export interface PasswordResetDeps {
  db: Db;
  mailer: Mailer;
  limiter: RateLimiter;
  publicUrl: URL;
  tokens: Pick<TokenService, "revokeAllForUser">;
  webSessions?: Pick<WebSessions, "destroyAllForUser">;
  audit?: Pick<Audit, "record">;
  /** Told when the password is reset: SSH connections of the account end. */
  credentials?: Pick<CredentialEvents, "changed">;
  /** Epoch seconds; tests move time forward to see a link expire. */
  now?: () => number;
  log?: Pick<Logger, "error">;
}

export function createPasswordReset({ db, mailer, limiter, publicUrl, tokens, webSessions, audit, credentials, now = nowSeconds, log }: PasswordResetDeps) {
  /** Mails on their way: sent after the answer, so a known address does not answer slower
   *  (SMTP takes a while) than an unknown one. */
  const sending = new Set<Promise<void>>();
  /** Mails a reset link when the address has an account; the same answer either way. */
  async function requestReset(email: string, ip: string): Promise<Message> {
    const address = email.trim().toLowerCase();
    await limiter.consumeAll([
      [`forgot-ip:${addressKey(ip)}`, FORGOT_PER_IP],
      [`forgot-email:${address}`, FORGOT_PER_EMAIL],
    ]);
    const u = await db.selectFrom("users").select(["id", "username", "email"]).where("email", "=", address).executeTakeFirst();
    if (u) {
      const token = randomToken();
      const t = now();
      await db
        .insertInto("password_resets")
        .values({ token_hash: hashToken(token), user_id: u.id, expires_at: t + RESET_LINK_SECONDS, created_at: t })
        .execute();
      const link = new URL(`/reset-password?token=${encodeURIComponent(token)}`, publicUrl).toString();
      const job = mailer
        .send({
          to: u.email,
          subject: "Reset your faultline password",
          text: [
            `Hello ${u.username},`,
            "",
            "Someone (we hope you) asked to reset the password of your faultline account. Choose a new one here:",
            "",
            link,
            "",
            "The link works once, for one hour. Using it signs you out everywhere.",
            "If you did not ask for this, ignore this mail: your password stays as it is.",
          ].join("\n"),
        })
        .catch((e) => log?.error("password reset: the mail could not be sent", e))
        .finally(() => sending.delete(job));
      sending.add(job);
    }
    return { message: FORGOT_ANSWER };
  }

  /** Is the link still good? (The page asks before showing the form.) */
  async function checkToken(token: string): Promise<{ valid: boolean }> {
    const row = await db.selectFrom("password_resets").select("expires_at").where("token_hash", "=", hashToken(token)).executeTakeFirst();
    return { valid: !!row && row.expires_at > now() };
  }

  /** Sets the new password once per link, then ends every sign-in of the account. */
  async function resetPassword(token: string, newPassword: string): Promise<Message> {
    const hash = hashToken(token);
    const row = await db.selectFrom("password_resets").selectAll().where("token_hash", "=", hash).executeTakeFirst();
    if (!row || row.expires_at <= now()) throw badRequest(RESET_LINK_INVALID);
    const passwordHash = await hashPassword(newPassword);
    // Single use: whoever deletes the row uses the link (two tabs racing: one wins).
    const taken = await db.deleteFrom("password_resets").where("token_hash", "=", hash).executeTakeFirst();
    if (Number(taken.numDeletedRows) !== 1) throw badRequest(RESET_LINK_INVALID);
    // Following the mailed link proves the address too.
    await db.updateTable("users").set({ password_hash: passwordHash, is_verified: 1, updated_at: nowSeconds() }).where("id", "=", row.user_id).execute();
    // Every other link mailed for the account dies with the old password.
    await forgetMailedLinks(db, row.user_id);
    await tokens.revokeAllForUser(row.user_id);
    await webSessions?.destroyAllForUser(row.user_id);
    credentials?.changed({ userId: row.user_id, what: "password" });
    await audit?.record({ action: "auth.password_reset", actorId: row.user_id });
    return { message: "Your password was changed. Sign in with the new one." };
  }

  /** Resolves when every reset mail on its way has been handed to the mailer. */
  async function settled() {
    while (sending.size) await Promise.allSettled([...sending]);
  }

  return { requestReset, checkToken, resetPassword, settled };
}
export type PasswordReset = ReturnType<typeof createPasswordReset>;
