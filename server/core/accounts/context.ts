// What the parts of the accounts service share: their dependencies, the few steps every part
// takes on a user row (read it, show it, update it), the addresses an account was signed in from
// lately, the proofs of identity several parts ask for (a TOTP code or a recovery code accepted
// once; the step-up before a sensitive change, decision 017), removing the second factor, and
// the security notices mailed to the owner (after the answer, mail-later.ts).
import type { FactorProof, OwnUser, StepUpProof } from "#shared/contract/index.ts";
import { STEP_UP_REQUIRED } from "#shared/rules.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { Logger } from "#server/logger.ts";
import type { Mailer } from "#server/mail/mailer.ts";
import type { Audit } from "#server/core/audit.ts";
import type { CredentialEvents } from "./credentials.ts";
import { badRequest, unauthorized } from "#server/core/errors.ts";
import { verifyPassword } from "#server/core/auth/passwords.ts";
import type { Limit, RateLimiter } from "#server/core/ratelimit.ts";
import type { Scoring } from "#server/core/scoring.ts";
import type { TokenService } from "#server/core/auth/tokens.ts";
import { matchTotp } from "#server/core/auth/totp.ts";
import { ownUser, type UserRow } from "#server/core/users.ts";
import type { WebSessions } from "#server/core/auth/web-sessions.ts";
import { KNOWN_ADDRESS, STEP_UP_PER_USER, TOTP_LOGIN_PER_ACCOUNT, TOTP_LOGIN_PER_ACCOUNT_IP, TOTP_PER_USER } from "./limits.ts";
import { createMailLater } from "./mail-later.ts";
import { createRecoveryCodes } from "./recovery-codes.ts";

export const NO_PASSWORD = "This account signs in with GitHub or Google and has no password.";
export const MFA_EXPIRED = "The sign-in attempt expired. Please sign in again.";

/** How old a second factor must be before its codes confirm an e-mail, key or deletion. */
export const FACTOR_STEP_UP_AGE_SECONDS = 24 * 3600;
const FRESH_FACTOR = "A code from an authenticator added in this sign-in or in the last 24 hours cannot confirm this change";
export const FRESH_FACTOR_USE_PASSWORD = `${FRESH_FACTOR}: confirm with your current password.`;
export const FRESH_FACTOR_WAIT = `${FRESH_FACTOR} yet. Try again once it is 24 hours old, after signing in again.`;

/**
 * A proof with the sign-in it comes from: the API adds `session` (the access token's refresh
 * family), never the caller. Without it a code is taken as coming from the sign-in that added
 * the factor (it fails closed).
 */
export type StepUp = StepUpProof & { session?: string | null };

export interface AccountsDeps {
  db: Db;
  tokens: TokenService;
  mailer: Mailer;
  limiter: RateLimiter;
  publicUrl: URL;
  /** Points, rank, level and achievements for the user views; zeros without it. */
  scoring?: Pick<Scoring, "userStats">;
  /** Web sign-ins, ended everywhere when the password changes. */
  webSessions?: Pick<WebSessions, "destroyAllForUser">;
  /** The audit log (server/core/audit.ts): sign-ins and their failures, 2FA and key changes. */
  audit?: Pick<Audit, "record">;
  /** Mails that could not be sent are logged here. */
  log?: Pick<Logger, "error">;
  /** The challenge ids loaded now (the admin console's reload changes them): no username may equal one. */
  challengeIds?: () => Iterable<string>;
  /** Told when a password or SSH key changes: SSH connections made with the old ones end. */
  credentials?: Pick<CredentialEvents, "changed">;
}

/**
 * Deletes the account's pending mailed links that act on it: password resets, e-mail changes
 * and lost-authenticator links. Called when the password or the address changes (decision 017).
 */
export async function forgetMailedLinks(db: Db, userId: string): Promise<void> {
  await db.deleteFrom("password_resets").where("user_id", "=", userId).execute();
  await db.deleteFrom("email_changes").where("user_id", "=", userId).execute();
  await db.deleteFrom("verifications").where("user_id", "=", userId).where("purpose", "=", "2fa-removal").execute();
}

export function createContext(deps: AccountsDeps) {
  const { db, limiter, scoring } = deps;
  const recoveryCodes = createRecoveryCodes(db);
  const mails = createMailLater(deps.mailer, deps.log);
  const byId = (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();

  /** The sign-in providers linked to the account. */
  const providersOf = async (userId: string) => [
    ...new Set((await db.selectFrom("oauth_accounts").select("provider").where("user_id", "=", userId).execute()).map((l) => l.provider)),
  ];

  async function view(u: UserRow): Promise<OwnUser> {
    const [linked, stats] = await Promise.all([providersOf(u.id), scoring?.userStats(u.id)]);
    return ownUser(u, linked, stats);
  }

  async function requireUser(id: string): Promise<UserRow> {
    const u = await byId(id);
    if (!u) throw unauthorized("User no longer exists");
    return u;
  }

  async function update(id: string, values: Partial<UserRow>) {
    await db
      .updateTable("users")
      .set({ ...values, updated_at: nowSeconds() })
      .where("id", "=", id)
      .execute();
  }

  const knownKey = (account: string, addr: string) => `login-known:${account}:${addr}`;
  /** Has this address completed a sign-in to the account lately (see KNOWN_ADDRESS)? */
  const isKnownAddress = async (account: string, addr: string) => (await limiter.count(knownKey(account, addr))) > 0;
  const rememberAddress = async (account: string, addr: string) => {
    await limiter.reset(knownKey(account, addr));
    await limiter.hit(knownKey(account, addr), KNOWN_ADDRESS);
  };

  /**
   * Counts one code against the allowances: `from` is the address key of a sign-in; without it
   * the caller is the signed-in owner.
   */
  async function codeAllowance(u: UserRow, from?: string): Promise<void> {
    if (from === undefined) await limiter.consume(`totp:${u.id}`, TOTP_PER_USER);
    else {
      const limits: [string, Limit][] = [[`totp-login:${u.id}:${from}`, TOTP_LOGIN_PER_ACCOUNT_IP]];
      if (!(await isKnownAddress(u.id, from))) limits.push([`totp-login:${u.id}`, TOTP_LOGIN_PER_ACCOUNT]);
      await limiter.consumeAll(limits);
    }
  }

  /** Accepts a TOTP code once: the step must be newer than the last one used. */
  async function acceptTotp(u: UserRow, code: string, from?: string): Promise<boolean> {
    await codeAllowance(u, from);
    if (!u.totp_secret) return false;
    const step = matchTotp(u.totp_secret, code.trim());
    if (step === null || (u.totp_last_step !== null && step <= u.totp_last_step)) return false;
    const res = await db
      .updateTable("users")
      .set({ totp_last_step: step })
      .where("id", "=", u.id)
      .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Uses one of the account's recovery codes, counted like a TOTP code. */
  async function acceptRecoveryCode(u: UserRow, code: string, from?: string): Promise<boolean> {
    await codeAllowance(u, from);
    if (u.totp_enabled !== 1) return false;
    return recoveryCodes.consume(u.id, code);
  }

  /** From when the second factor's codes are a step-up (null: 2FA is off). */
  const stepUpFrom = (u: UserRow) => (u.totp_enabled === 1 ? (u.totp_enabled_at ?? nowSeconds()) + FACTOR_STEP_UP_AGE_SECONDS : null);

  /** A factor added less than 24 hours ago, or in this sign-in (or from no known sign-in). */
  function isFreshFactor(u: UserRow, session: string | null | undefined): boolean {
    const from = stepUpFrom(u);
    return from === null || u.totp_enabled_at === null || nowSeconds() < from || !session || session === u.totp_session;
  }

  async function confirmPassword(u: UserRow, password: string): Promise<void> {
    if (!u.password_hash) throw badRequest(NO_PASSWORD);
    await limiter.consume(`step-up:${u.id}`, STEP_UP_PER_USER);
    if (!(await verifyPassword(u.password_hash, password))) throw badRequest("Current password is incorrect");
  }

  /**
   * Re-authentication before a sensitive change: the current password, or (for accounts with
   * 2FA on) a current TOTP code, accepted once. A code counts only from a factor at least 24
   * hours old that another sign-in added (decision 017: a stolen session that enrols its own
   * authenticator must not then use it to move the account). Changes to the factor itself
   * (`factorChange`: turning it off, new recovery codes) take any of its codes, and a recovery
   * code. Throws 400 with what was wrong.
   */
  async function confirmIdentity(u: UserRow, proof: StepUp & FactorProof, opts: { factorChange?: boolean } = {}): Promise<void> {
    if (proof.current_password !== undefined) return confirmPassword(u, proof.current_password);
    if (proof.code !== undefined) {
      if (u.totp_enabled !== 1) throw badRequest("Two-factor authentication is not enabled: confirm with your password");
      if (!opts.factorChange && isFreshFactor(u, proof.session)) throw badRequest(u.password_hash ? FRESH_FACTOR_USE_PASSWORD : FRESH_FACTOR_WAIT);
      if (!(await acceptTotp(u, proof.code))) throw badRequest("Invalid verification code");
      return;
    }
    if (proof.recovery_code !== undefined && opts.factorChange) {
      if (!(await acceptRecoveryCode(u, proof.recovery_code))) throw badRequest("Invalid recovery code");
      return;
    }
    throw badRequest(STEP_UP_REQUIRED);
  }

  /** Turns the second factor off: secret, enrolment, recovery codes, a pending removal. */
  async function removeSecondFactor(userId: string): Promise<void> {
    await update(userId, { totp_enabled: 0, totp_secret: null, totp_last_step: null, totp_enabled_at: null, totp_session: null, totp_removal_at: null });
    await recoveryCodes.removeAll(userId);
  }

  /** A security notice to the account's address, sent after the answer. */
  function notify(u: Pick<UserRow, "username" | "email">, subject: string, lines: string[]): void {
    mails.send({ to: u.email, subject, text: [`Hello ${u.username},`, "", ...lines].join("\n") });
  }

  return {
    deps,
    byId,
    view,
    providersOf,
    requireUser,
    update,
    isKnownAddress,
    rememberAddress,
    acceptTotp,
    acceptRecoveryCode,
    confirmPassword,
    confirmIdentity,
    stepUpFrom,
    isFreshFactor,
    removeSecondFactor,
    recoveryCodes,
    notify,
    mails,
  };
}
export type AccountsContext = ReturnType<typeof createContext>;
