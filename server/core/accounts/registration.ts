// Registration and e-mail proof: a new account, the verification link (sent, followed, sent
// again), and the answer to a registration with an address that already has an account.
import type { EmailVerified, Message, OwnUser } from "#shared/contract/index.ts";
import { EMAIL_VERIFICATION_HOURS, isReservedUsername } from "#shared/rules.ts";
import { nowSeconds } from "#server/db/index.ts";
import { badRequest, conflict } from "#server/core/errors.ts";
import { hashPassword } from "#server/core/auth/passwords.ts";
import { addressKey } from "#server/core/ratelimit.ts";
import { hashToken, randomToken } from "#server/core/secrets.ts";
import { newUserRow, type UserRow } from "#server/core/users.ts";
import type { AccountsContext } from "./context.ts";
import { REGISTER_PER_IP, RESEND_PER_USER } from "./limits.ts";

const USERNAME_OR_EMAIL_TAKEN = "Username or email already exists";
/** "Someone tried to sign up with your address" mails per address: a stranger
 *  can trigger them, so after these a day the owner hears nothing more of it until the window ends. */
export const SIGNUP_NOTICES_PER_ADDRESS = { max: 3, windowSeconds: 24 * 3600 };

export function createRegistration(ctx: AccountsContext) {
  const { db, limiter, publicUrl } = ctx.deps;
  const { byId, view, requireUser, update } = ctx;

  /** The one check of a username's availability beyond uniqueness: every way a name is chosen
   *  (registration, the admin console's Add User, OAuth sign-up, any rename) asks it. */
  const usernameReserved = (name: string) => isReservedUsername(name, ctx.deps.challengeIds?.() ?? []);

  async function sendVerification(u: UserRow) {
    const token = randomToken();
    await db.deleteFrom("verifications").where("user_id", "=", u.id).where("purpose", "=", "email").execute();
    await db
      .insertInto("verifications")
      .values({
        token_hash: hashToken(token),
        purpose: "email",
        user_id: u.id,
        expires_at: nowSeconds() + EMAIL_VERIFICATION_HOURS * 3600,
        created_at: nowSeconds(),
      })
      .execute();
    const link = new URL(`/verify-email?token=${encodeURIComponent(token)}`, publicUrl).toString();
    // After the answer (mail-later.ts): how long a registration or a resend takes must not say
    // whether a mail went out, nor to whom.
    ctx.mails.send({
      to: u.email,
      subject: "Verify your faultline e-mail address",
      text: [
        `Hello ${u.username},`,
        "",
        "Confirm your e-mail address to start challenges on faultline:",
        link,
        "",
        `The link expires in ${EMAIL_VERIFICATION_HOURS} hours. If you did not sign up, ignore this message.`,
      ].join("\n"),
    });
  }

  /**
   * The answer to a registration with an address that already has an account: what a new
   * account would get (the row as it would have been stored, with the database's defaults), and
   * a mail to the address's owner instead of a verification link (at most
   * SIGNUP_NOTICES_PER_ADDRESS). Nothing is stored.
   */
  async function registeredAgain(
    owner: UserRow,
    row: Omit<
      UserRow,
      | "is_admin"
      | "is_verified"
      | "theme"
      | "totp_enabled"
      | "notify_new_challenges"
      | "notify_solution_feedback"
      | "notify_leaderboard_updates"
      | "notify_marketing"
      | "plan"
      | "plan_until"
      | "totp_enabled_at"
      | "totp_session"
      | "totp_removal_at"
    >,
  ): Promise<OwnUser> {
    // Anyone can make us mail the owner this way: a few a day per address, then silence (the
    // answer stays the same either way).
    const noticeDue = await limiter.consume(`signup-notice:${owner.email.toLowerCase()}`, SIGNUP_NOTICES_PER_ADDRESS).then(
      () => true,
      () => false,
    );
    if (noticeDue) {
      ctx.mails.send({
        to: owner.email,
        subject: "Someone tried to sign up to faultline with your e-mail address",
        text: [
          `Hello ${owner.username},`,
          "",
          `Someone just tried to create a faultline account with this e-mail address. Your account (${owner.username}) already uses it, so nothing was created and nothing about your account changed.`,
          "",
          `If it was you: sign in at ${new URL("/login", publicUrl).toString()} instead. Otherwise, you can ignore this message.`,
        ].join("\n"),
      });
    }
    return view({
      ...row,
      is_admin: 0,
      is_verified: 0,
      theme: "dark",
      totp_enabled: 0,
      totp_enabled_at: null,
      totp_session: null,
      totp_removal_at: null,
      notify_new_challenges: 1,
      notify_solution_feedback: 1,
      notify_leaderboard_updates: 0,
      notify_marketing: 0,
      plan: "free",
      plan_until: null,
    });
  }

  /**
   * Usernames are public (profiles), so a taken one is said. An e-mail address is not: for
   * an address that already has an account the answer is the one a new account gets (201,
   * the same fields, the same password-hashing time), and the address's owner is told by mail
   * that someone tried; the form cannot be used to learn who has an account here.
   */
  async function register(input: { username: string; email: string; password: string }, ip: string): Promise<OwnUser> {
    await limiter.consume(`register:${addressKey(ip)}`, REGISTER_PER_IP);
    const email = input.email.toLowerCase();
    const nameTaken = await db
      .selectFrom("users")
      .select("id")
      .where((eb) => eb(eb.fn("lower", ["username"]), "=", input.username.toLowerCase()))
      .executeTakeFirst();
    // A reserved name reads as taken: it is, by the platform (and saying "reserved" would tell
    // which ids hidden challenges have).
    if (nameTaken || usernameReserved(input.username)) throw conflict(USERNAME_OR_EMAIL_TAKEN);
    const row = newUserRow({ username: input.username, email, password_hash: await hashPassword(input.password) });
    const owner = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
    if (owner) return registeredAgain(owner, row);
    try {
      await db.insertInto("users").values(row).execute();
    } catch (e) {
      if (!/unique|duplicate/i.test(String(e))) throw e;
      // Two registrations racing: the unique indexes decide, and the address stays unsaid.
      const winner = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
      if (winner) return registeredAgain(winner, row);
      throw conflict(USERNAME_OR_EMAIL_TAKEN);
    }
    const u = (await byId(row.id))!;
    await sendVerification(u);
    return view(u);
  }

  async function verifyEmail(token: string): Promise<EmailVerified> {
    const row = await db.selectFrom("verifications").selectAll().where("token_hash", "=", hashToken(token)).where("purpose", "=", "email").executeTakeFirst();
    if (!row || row.expires_at <= nowSeconds()) {
      throw badRequest("The verification link is invalid or has expired.");
    }
    await db.deleteFrom("verifications").where("token_hash", "=", row.token_hash).execute();
    await update(row.user_id, { is_verified: 1 });
    return { message: "Email verified", user: await view(await requireUser(row.user_id)) };
  }

  /** Re-sends the link. By e-mail it answers the same whether or not the address is known. */
  async function resendVerification(who: { userId: string } | { email: string }): Promise<Message> {
    const u =
      "userId" in who ? await byId(who.userId) : await db.selectFrom("users").selectAll().where("email", "=", who.email.toLowerCase()).executeTakeFirst();
    const generic = { message: "If the account exists and is not verified yet, a new link is on its way." };
    if (u && u.is_verified === 0) {
      try {
        await limiter.consume(`resend:${u.id}`, RESEND_PER_USER);
      } catch (e) {
        // Asked by address, a 429 would tell a stranger the account exists: stay generic.
        if ("email" in who) return generic;
        throw e;
      }
      await sendVerification(u);
    }
    return generic;
  }

  return { sendVerification, register, verifyEmail, resendVerification, usernameReserved };
}
