// "I lost my authenticator (and my recovery codes)": from the second step of a sign-in (so the
// first factor was given), a single-use link goes to the account's verified address. Following
// it does not turn 2FA off at once: it schedules that for REMOVAL_DELAY_SECONDS later and mails
// the address. Until then signing in still asks for a code, and any sign-in with the factor (a
// code or a recovery code) cancels the removal. Whoever holds the password and the mailbox, but
// not the authenticator, therefore waits three days in plain view of an owner who still signs in
// with it (decision 017). An administrator can reset 2FA at once (twofactor.ts, resetByAdmin).
import type { Message, TotpRemovalScheduled } from "#shared/contract/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import { badRequest, unauthorized } from "#server/core/errors.ts";
import { hashToken, randomToken } from "#server/core/secrets.ts";
import type { UserRow } from "#server/core/users.ts";
import { type AccountsContext, MFA_EXPIRED } from "./context.ts";
import { REMOVAL_PER_ACCOUNT } from "./limits.ts";

export const REMOVAL_DELAY_SECONDS = 3 * 24 * 3600;
export const REMOVAL_LINK_SECONDS = 3600;
export const REMOVAL_ASKED =
  "If this account's e-mail address is verified, a link to turn off two-factor authentication is on its way to it. It works once, for one hour.";
export const REMOVAL_LINK_INVALID = "This link is invalid or has expired. Ask for a new one at sign-in.";

const when = (t: number) => new Date(t * 1000).toUTCString();

export function createLostAuthenticator(ctx: AccountsContext, notices: { disabledNotice(u: UserRow, why: string): void }) {
  const { db, limiter, audit, publicUrl } = ctx.deps;
  const { requireUser, byId, removeSecondFactor, notify } = ctx;

  /** The link, asked for with the pending sign-in's mfa_token (the same answer either way). */
  async function requestRemoval(mfaToken: string): Promise<Message> {
    const challenge = await db
      .selectFrom("verifications")
      .select(["user_id", "expires_at"])
      .where("token_hash", "=", hashToken(mfaToken))
      .where("purpose", "=", "login-2fa")
      .executeTakeFirst();
    if (!challenge || challenge.expires_at <= nowSeconds()) throw unauthorized(MFA_EXPIRED);
    const u = await requireUser(challenge.user_id);
    await limiter.consume(`2fa-removal:${u.id}`, REMOVAL_PER_ACCOUNT);
    if (u.totp_enabled === 1 && u.is_verified === 1) {
      const token = randomToken();
      const t = nowSeconds();
      await db.deleteFrom("verifications").where("user_id", "=", u.id).where("purpose", "=", "2fa-removal").execute();
      await db
        .insertInto("verifications")
        .values({ token_hash: hashToken(token), purpose: "2fa-removal", user_id: u.id, expires_at: t + REMOVAL_LINK_SECONDS, created_at: t })
        .execute();
      const link = new URL(`/login/2fa/recover?token=${encodeURIComponent(token)}`, publicUrl).toString();
      notify(u, "Turn off two-factor authentication on your faultline account", [
        "Someone signing in to your faultline account said they lost their authenticator app and recovery codes. If that was you, follow this link:",
        "",
        link,
        "",
        `The link works once, for one hour. Two-factor authentication then goes off ${REMOVAL_DELAY_SECONDS / 3600} hours later, unless someone signs in with a code before that.`,
        "If this was not you, ignore this mail and change your password: whoever asked got past it (or past your GitHub or Google sign-in).",
      ]);
    }
    return { message: REMOVAL_ASKED };
  }

  /** Following the link: the removal is scheduled (single use), and the address told. */
  async function confirmRemoval(token: string): Promise<TotpRemovalScheduled> {
    const hash = hashToken(token);
    const row = await db
      .selectFrom("verifications")
      .select(["user_id", "expires_at"])
      .where("token_hash", "=", hash)
      .where("purpose", "=", "2fa-removal")
      .executeTakeFirst();
    if (!row || row.expires_at <= nowSeconds()) throw badRequest(REMOVAL_LINK_INVALID);
    const taken = await db.deleteFrom("verifications").where("token_hash", "=", hash).where("purpose", "=", "2fa-removal").executeTakeFirst();
    if (Number(taken.numDeletedRows) !== 1) throw badRequest(REMOVAL_LINK_INVALID);
    const u = await byId(row.user_id);
    if (!u || u.totp_enabled !== 1) throw badRequest(REMOVAL_LINK_INVALID);
    // A removal already under way keeps its date: asking again never brings it closer.
    await db
      .updateTable("users")
      .set({ totp_removal_at: nowSeconds() + REMOVAL_DELAY_SECONDS })
      .where("id", "=", u.id)
      .where("totp_removal_at", "is", null)
      .execute();
    const removalAt = (await requireUser(u.id)).totp_removal_at!;
    await audit?.record({ action: "auth.2fa_removal_requested", actorId: u.id, detail: { removal_at: removalAt } });
    notify(u, "Two-factor authentication on your faultline account will be turned off", [
      `The link to turn off two-factor authentication was followed: it goes off on ${when(removalAt)}.`,
      "Until then signing in still asks for a code, and a sign-in with a code or a recovery code cancels this.",
      "",
      "If this was not you, sign in with your authenticator app before then, and change your password: whoever asked got past it and reads this mailbox.",
    ]);
    return {
      message: `Two-factor authentication will be turned off on ${when(removalAt)}. Until then, signing in still asks for a code; signing in with one cancels this.`,
      removal_at: removalAt,
    };
  }

  /** At sign-in: a removal whose time has come is carried out; true when 2FA went off. */
  async function carryOutRemoval(u: UserRow): Promise<boolean> {
    if (u.totp_enabled !== 1 || u.totp_removal_at === null || u.totp_removal_at > nowSeconds()) return false;
    await removeSecondFactor(u.id);
    await audit?.record({ action: "auth.2fa_disabled", actorId: u.id, detail: { reason: "lost authenticator" } });
    notices.disabledNotice(u, "It was asked for with the link for a lost authenticator, three days ago.");
    return true;
  }

  /** A sign-in with the factor: whoever asked for its removal still has it after all. */
  async function cancelRemoval(u: UserRow): Promise<void> {
    if (u.totp_removal_at === null) return;
    await db.updateTable("users").set({ totp_removal_at: null }).where("id", "=", u.id).execute();
    await db.deleteFrom("verifications").where("user_id", "=", u.id).where("purpose", "=", "2fa-removal").execute();
    await audit?.record({ action: "auth.2fa_removal_cancelled", actorId: u.id });
    notify(u, "Two-factor authentication stays on for your faultline account", [
      "Someone signed in to your faultline account with a two-factor code, so the request to turn two-factor authentication off was cancelled.",
    ]);
  }

  return { requestRemoval, confirmRemoval, carryOutRemoval, cancelRemoval };
}
export type LostAuthenticator = ReturnType<typeof createLostAuthenticator>;
