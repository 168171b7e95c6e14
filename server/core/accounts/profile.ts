// The account as its owner and others see it, and what its owner changes on it: profile fields,
// notification settings, the password (which ends every other sign-in). Also the admin flag the
// CLI grants and revokes.
import { USER_STATISTICS } from "#shared/contract/index.ts";
import type { NotificationsUpdate, OwnUser, PasswordChange, PasswordChanged, ProfileUpdate, PublicUser, SignedInUser } from "#shared/contract/index.ts";
import { isDisabled } from "#server/core/admin/disabled.ts";
import { badRequest, notFound } from "#server/core/errors.ts";
import { hashPassword, verifyPassword } from "#server/core/auth/passwords.ts";
import { ownUser, publicUser } from "#server/core/users.ts";
import { type AccountsContext, forgetMailedLinks, NO_PASSWORD } from "./context.ts";
import { LOGIN_PER_ACCOUNT_IP } from "./limits.ts";

export function createProfile(ctx: AccountsContext) {
  const { db, tokens, limiter, scoring, webSessions } = ctx.deps;
  const { view, providersOf, requireUser, update } = ctx;

  async function me(userId: string): Promise<OwnUser> {
    return view(await requireUser(userId));
  }

  /** The web's identity check on every page: the account without statistics, so no score is
   *  read (a signed-in page used to compute the user's rank over the whole board). */
  async function identity(userId: string): Promise<SignedInUser> {
    const u = await requireUser(userId);
    const own: Partial<OwnUser> = ownUser(u, await providersOf(u.id));
    for (const key of USER_STATISTICS) delete own[key];
    return own as SignedInUser;
  }

  async function publicProfile(username: string): Promise<PublicUser> {
    const u = await db
      .selectFrom("users")
      .selectAll()
      .where(({ eb, fn }) => eb(fn("lower", ["username"]), "=", username.toLowerCase()))
      .executeTakeFirst();
    // A disabled account has no public face (nor its solves, activity and published sessions).
    if (!u || (await isDisabled(db, u.id))) throw notFound("User not found");
    return publicUser(u, await scoring?.userStats(u.id));
  }

  async function updateProfile(userId: string, input: ProfileUpdate): Promise<OwnUser> {
    await update(userId, input);
    return view(await requireUser(userId));
  }

  async function updateNotifications(userId: string, prefs: NotificationsUpdate): Promise<OwnUser> {
    const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? (1 as const) : (0 as const));
    await update(userId, {
      notify_new_challenges: flag(prefs.newChallenges),
      notify_solution_feedback: flag(prefs.solutionFeedback),
      notify_leaderboard_updates: flag(prefs.leaderboardUpdates),
      notify_marketing: flag(prefs.marketingEmails),
    });
    return view(await requireUser(userId));
  }

  /** Changes the password and ends every other login; returns fresh tokens for this one. */
  async function changePassword(userId: string, input: PasswordChange): Promise<PasswordChanged> {
    const u = await requireUser(userId);
    if (!u.password_hash) throw badRequest(NO_PASSWORD);
    await limiter.consume(`password-change:${userId}`, LOGIN_PER_ACCOUNT_IP);
    if (!(await verifyPassword(u.password_hash, input.current_password))) {
      throw badRequest("Current password is incorrect");
    }
    await update(userId, { password_hash: await hashPassword(input.new_password) });
    // Links mailed before the change die with the old password: a reset link or an
    // e-mail change that a mailbox or a session thief asked for would otherwise outlive it.
    await forgetMailedLinks(db, userId);
    await tokens.revokeAllForUser(userId);
    // Every browser signed in with the old password is signed out now (and its live sockets
    // closed), not when its access token runs out; the caller gets a fresh pair below.
    await webSessions?.destroyAllForUser(userId);
    ctx.deps.credentials?.changed({ userId, what: "password" });
    return { message: "Password changed", ...(await tokens.issue(u)) };
  }

  async function setAdmin(username: string, isAdmin: boolean) {
    const res = await db
      .updateTable("users")
      .set({ is_admin: isAdmin ? 1 : 0 })
      .where(({ eb, fn }) => eb(fn("lower", ["username"]), "=", username.toLowerCase()))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw notFound(`No user named ${username}`);
  }

  return { me, identity, publicProfile, updateProfile, updateNotifications, changePassword, setAdmin };
}
