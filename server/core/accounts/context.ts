// What the parts of the accounts service share: their dependencies, the few steps every part
// takes on a user row (read it, show it, update it), the addresses an account was signed in from
// lately, and the proofs of identity several parts ask for (a TOTP code accepted once; the
// step-up before a sensitive change).
import type { OwnUser, StepUpProof } from "../../../shared/contract/index.ts";
import { STEP_UP_REQUIRED } from "../../../shared/rules.ts";
import type { Db } from "../../db/index.ts";
import { nowSeconds } from "../../db/index.ts";
import type { Mailer } from "../../mail/mailer.ts";
import type { Audit } from "../audit.ts";
import type { CredentialEvents } from "./credentials.ts";
import { badRequest, unauthorized } from "../errors.ts";
import { verifyPassword } from "../passwords.ts";
import type { Limit, RateLimiter } from "../ratelimit.ts";
import type { Scoring } from "../scoring.ts";
import type { TokenService } from "../tokens.ts";
import { matchTotp } from "../totp.ts";
import { ownUser, type UserRow } from "../users.ts";
import type { WebSessions } from "../web-sessions.ts";
import { KNOWN_ADDRESS, STEP_UP_PER_USER, TOTP_LOGIN_PER_ACCOUNT, TOTP_LOGIN_PER_ACCOUNT_IP, TOTP_PER_USER } from "./limits.ts";

export const NO_PASSWORD = "This account signs in with GitHub or Google and has no password.";

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
  /** Told when a password or SSH key changes: SSH connections made with the old ones end. */
  credentials?: Pick<CredentialEvents, "changed">;
}

export function createContext(deps: AccountsDeps) {
  const { db, limiter, scoring } = deps;
  const byId = (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();

  /** The sign-in providers linked to the account. */
  const providersOf = async (userId: string) =>
    [...new Set((await db.selectFrom("oauth_accounts").select("provider").where("user_id", "=", userId).execute()).map((l) => l.provider))];

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
    await db.updateTable("users").set({ ...values, updated_at: nowSeconds() }).where("id", "=", id).execute();
  }

  const knownKey = (account: string, addr: string) => `login-known:${account}:${addr}`;
  /** Has this address completed a sign-in to the account lately (see KNOWN_ADDRESS)? */
  const isKnownAddress = async (account: string, addr: string) => (await limiter.count(knownKey(account, addr))) > 0;
  const rememberAddress = async (account: string, addr: string) => {
    await limiter.reset(knownKey(account, addr));
    await limiter.hit(knownKey(account, addr), KNOWN_ADDRESS);
  };

  /**
   * Accepts a TOTP code once: the step must be newer than the last one used. `from` is the
   * address key of a sign-in; without it the caller is the signed-in owner.
   */
  async function acceptTotp(u: UserRow, code: string, from?: string): Promise<boolean> {
    if (from === undefined) await limiter.consume(`totp:${u.id}`, TOTP_PER_USER);
    else {
      const limits: [string, Limit][] = [[`totp-login:${u.id}:${from}`, TOTP_LOGIN_PER_ACCOUNT_IP]];
      if (!(await isKnownAddress(u.id, from))) limits.push([`totp-login:${u.id}`, TOTP_LOGIN_PER_ACCOUNT]);
      await limiter.consumeAll(limits);
    }
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

  /**
   * Re-authentication before a sensitive change: the current password, or (for accounts with
   * 2FA on) a current TOTP code, accepted once. Throws 400 with what was wrong.
   */
  async function confirmIdentity(u: UserRow, proof: StepUpProof): Promise<void> {
    if (proof.current_password !== undefined) {
      if (!u.password_hash) throw badRequest(NO_PASSWORD);
      await limiter.consume(`step-up:${u.id}`, STEP_UP_PER_USER);
      if (!(await verifyPassword(u.password_hash, proof.current_password))) throw badRequest("Current password is incorrect");
      return;
    }
    if (proof.code !== undefined) {
      if (u.totp_enabled !== 1) throw badRequest("Two-factor authentication is not enabled: confirm with your password");
      if (!(await acceptTotp(u, proof.code))) throw badRequest("Invalid verification code");
      return;
    }
    throw badRequest(STEP_UP_REQUIRED);
  }

  return { deps, byId, view, providersOf, requireUser, update, isKnownAddress, rememberAddress, acceptTotp, confirmIdentity };
}
export type AccountsContext = ReturnType<typeof createContext>;
