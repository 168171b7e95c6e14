// Signing in: the password (with its rate limits, see limits.ts), the second factor when 2FA is
// on (a TOTP code or a single-use recovery code), the door every way in passes (a disabled
// account stops there; a lost authenticator's removal, once due, happens there), refresh and
// logout.
import type { LoginResult } from "#shared/contract/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import { isDisabled } from "#server/core/admin/disabled.ts";
import { ACCOUNT_DISABLED } from "#server/core/admin/users.ts";
import { forbidden, unauthorized } from "#server/core/errors.ts";
import { verifyPassword } from "#server/core/auth/passwords.ts";
import { addressKey, type Limit } from "#server/core/ratelimit.ts";
import { hashToken, randomToken } from "#server/core/secrets.ts";
import type { UserRow } from "#server/core/users.ts";
import { type AccountsContext, MFA_EXPIRED } from "./context.ts";
import { LOGIN_PER_ACCOUNT, LOGIN_PER_ACCOUNT_IP, LOGIN_PER_IP } from "./limits.ts";
import type { LostAuthenticator } from "./lost-authenticator.ts";

const MFA_CHALLENGE_SECONDS = 5 * 60;
const MFA_CHALLENGE_ATTEMPTS = 5;

export function createSignIn(ctx: AccountsContext, lost: Pick<LostAuthenticator, "carryOutRemoval" | "cancelRemoval">) {
  const { db, tokens, limiter, audit } = ctx.deps;
  const { byId, view, requireUser, isKnownAddress, rememberAddress, acceptTotp, acceptRecoveryCode, recoveryCodes, notify } = ctx;

  async function issueLogin(u: UserRow): Promise<LoginResult> {
    await audit?.record({ action: "auth.login", actorId: u.id, target: { type: "user", id: u.id } });
    return { mfa_required: false, ...(await tokens.issue(u)), user: await view(u) };
  }

  /** After the first factor: tokens, or a short-lived challenge when 2FA is on. */
  async function startLogin(u: UserRow): Promise<LoginResult> {
    // Every way in (password, OAuth) passes here: a disabled account stops at the door.
    if (await isDisabled(db, u.id)) {
      await audit?.record({ action: "auth.login_failed", actorId: u.id, target: { type: "user", id: u.id }, detail: { reason: "disabled" } });
      throw forbidden(ACCOUNT_DISABLED);
    }
    if (u.totp_enabled !== 1) return issueLogin(u);
    if (await lost.carryOutRemoval(u)) return issueLogin(await requireUser(u.id));
    const token = randomToken();
    await db
      .insertInto("verifications")
      .values({
        token_hash: hashToken(token),
        purpose: "login-2fa",
        user_id: u.id,
        expires_at: nowSeconds() + MFA_CHALLENGE_SECONDS,
        created_at: nowSeconds(),
      })
      .execute();
    return { mfa_required: true, mfa_token: token, expires_in: MFA_CHALLENGE_SECONDS };
  }

  async function login(input: { username_or_email: string; password: string }, ip: string): Promise<LoginResult> {
    const id = input.username_or_email.trim().toLowerCase();
    const addr = addressKey(ip);
    const ipKey = `login-ip:${addr}`;
    await limiter.check(ipKey, LOGIN_PER_IP); // refused floods cost no user lookup or password hash
    const u = await db
      .selectFrom("users")
      .selectAll()
      .where((eb) => eb.or([eb(eb.fn("lower", ["username"]), "=", id), eb("email", "=", id)]))
      .executeTakeFirst();
    // Keyed on the account, not on the name typed: username and e-mail share one allowance.
    const account = u ? u.id : `name:${id}`;
    const pairKey = `login-acct-ip:${account}:${addr}`;
    const accountKey = `login-acct:${account}`;
    const known = await isKnownAddress(account, addr);
    const limits: [string, Limit][] = [
      [ipKey, LOGIN_PER_IP],
      [pairKey, LOGIN_PER_ACCOUNT_IP],
    ];
    if (!known) limits.push([accountKey, LOGIN_PER_ACCOUNT]);
    await limiter.consumeAll(limits);
    const ok = await verifyPassword(u?.password_hash ?? null, input.password);
    if (!u || !ok) {
      await audit?.record({
        action: "auth.login_failed",
        actorId: u?.id ?? null,
        target: u ? { type: "user", id: u.id } : null,
        typed: u ? undefined : input.username_or_email,
        detail: { reason: "password" },
      });
      throw unauthorized("Incorrect username or password");
    }
    // The right password: not a failure. Its counts go back and the address's typos are forgiven.
    await limiter.refund(ipKey);
    if (!known) await limiter.refund(accountKey);
    await limiter.reset(pairKey);
    // With 2FA on, the address is known only once the second factor is given too.
    if (u.totp_enabled !== 1) await rememberAddress(u.id, addr);
    return startLogin(u);
  }

  /** Completes a login that needed a second factor: a TOTP code or a recovery code. */
  async function loginSecondFactor(input: { mfa_token: string; code?: string; recovery_code?: string }, ip: string): Promise<LoginResult> {
    const hash = hashToken(input.mfa_token);
    const challenge = await db.selectFrom("verifications").selectAll().where("token_hash", "=", hash).where("purpose", "=", "login-2fa").executeTakeFirst();
    if (!challenge || challenge.expires_at <= nowSeconds()) throw unauthorized(MFA_EXPIRED);
    // Each code tried takes one of the challenge's attempts first, in one conditional update:
    // parallel guesses cannot all read the same count and all be looked at.
    const took = await db
      .updateTable("verifications")
      .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
      .where("token_hash", "=", hash)
      .where("purpose", "=", "login-2fa")
      .where("attempts", "<", MFA_CHALLENGE_ATTEMPTS)
      .executeTakeFirst();
    if (Number(took.numUpdatedRows) !== 1) throw unauthorized(MFA_EXPIRED);
    const u = await requireUser(challenge.user_id);
    const addr = addressKey(ip);
    const known = await isKnownAddress(u.id, addr);
    const byRecovery = input.code === undefined && input.recovery_code !== undefined;
    const accepted = byRecovery ? await acceptRecoveryCode(u, input.recovery_code!, addr) : await acceptTotp(u, input.code ?? "", addr);
    if (!accepted) {
      await audit?.record({
        action: "auth.login_failed",
        actorId: u.id,
        target: { type: "user", id: u.id },
        detail: { reason: byRecovery ? "recovery code" : "2fa code" },
      });
      throw unauthorized(byRecovery ? "Invalid recovery code" : "Invalid verification code");
    }
    // The right code is not a failure: its counts go back.
    await limiter.reset(`totp-login:${u.id}:${addr}`);
    if (!known) await limiter.refund(`totp-login:${u.id}`);
    await db.deleteFrom("verifications").where("token_hash", "=", hash).execute();
    await rememberAddress(u.id, addr);
    await lost.cancelRemoval(u);
    if (byRecovery) {
      const left = await recoveryCodes.left(u.id);
      await audit?.record({ action: "auth.2fa_recovery_code_used", actorId: u.id, target: { type: "user", id: u.id }, detail: { left } });
      notify(u, "A recovery code was used to sign in to your faultline account", [
        `Someone signed in to your faultline account with one of its two-factor recovery codes. ${left} of them ${left === 1 ? "is" : "are"} left.`,
        "Make new ones in your settings when few are left.",
        "",
        "If this was not you, change your password now (that signs you out everywhere) and make new recovery codes.",
      ]);
    }
    return issueLogin(u);
  }

  async function refresh(refreshToken: string) {
    return tokens.rotate(refreshToken, byId);
  }

  async function logout(refreshToken: string | undefined) {
    if (refreshToken) await tokens.revoke(refreshToken);
  }

  return { startLogin, login, loginSecondFactor, refresh, logout };
}
