// Accounts: registration, e-mail proof, password and second-factor login, profile, settings,
// SSH key. No HTTP here: callers pass plain values and get plain values or a DomainError.
import { randomUUID } from "node:crypto";
import QRCode from "qrcode";
import type {
  EmailVerified,
  LoginResult,
  Message,
  NotificationsUpdate,
  OwnUser,
  PasswordChange,
  PasswordChanged,
  ProfileUpdate,
  PublicUser,
  SshKeyDeleted,
  SshKeyNonce,
  SshKeySaved,
  SshKeyStatus,
  StepUpProof,
  TotpChanged,
  TotpSetup,
} from "../../shared/contract/index.ts";
import type { Db } from "../db/index.ts";
import { nowSeconds } from "../db/index.ts";
import type { Mailer } from "../mail/mailer.ts";
import { ACCOUNT_DISABLED, isDisabled } from "./admin/users.ts";
import type { Audit } from "./audit.ts";
import { badRequest, conflict, forbidden, notFound, unauthorized } from "./errors.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { addressKey, type Limit, type RateLimiter } from "./ratelimit.ts";
import type { Scoring } from "./scoring.ts";
import { EMAIL_VERIFICATION_HOURS, STEP_UP_REQUIRED } from "../../shared/rules.ts";
import { hashToken, randomToken, safeEqual } from "./secrets.ts";
import { createSshKeyProofs } from "./sshkey-proofs.ts";
import { parseSshPublicKey } from "./sshkeys.ts";
import type { TokenService } from "./tokens.ts";
import { matchTotp, newTotpSecret, totpUri } from "./totp.ts";
import type { WebSessions } from "./web-sessions.ts";
import { ownUser, publicUser, type UserRow } from "./users.ts";

const MFA_CHALLENGE_SECONDS = 5 * 60;
const MFA_CHALLENGE_ATTEMPTS = 5;

// Sign-in attempts are counted BEFORE the password hash is computed, all limits in one
// synchronous step (limiter.consumeAll): parallel guesses cannot all pass a check made before
// any of them was counted. A right password gives its counts back.
// - per address: a flood from one address is stopped;
// - per (account, address): a few typos, then that address waits;
// - per account, from any address: guessing spread over many addresses is slowed to
//   LOGIN_PER_ACCOUNT.max an hour. So that this cannot become a way to lock the owner out,
//   it does not apply from an address that completed a sign-in to the account in the last 30
//   days (KNOWN_ADDRESS): an attacker can make new addresses wait (at most the window, an hour,
//   after the attack stops), never the owner's usual ones. A delay that grows would not help
//   more: parallel requests would queue behind it, and the owner with them.
const LOGIN_PER_IP = { max: 30, windowSeconds: 15 * 60 };
const LOGIN_PER_ACCOUNT_IP = { max: 5, windowSeconds: 15 * 60 };
const LOGIN_PER_ACCOUNT = { max: 20, windowSeconds: 3600 };
const KNOWN_ADDRESS = { max: 1, windowSeconds: 30 * 24 * 3600 };
const REGISTER_PER_IP = { max: 10, windowSeconds: 3600 };
const RESEND_PER_USER = { max: 3, windowSeconds: 3600 };
/** TOTP codes from a signed-in user (2FA set-up, step-up): only the owner gets here. */
const TOTP_PER_USER = { max: 10, windowSeconds: 15 * 60 };
// TOTP codes at sign-in, where whoever knows the password can send codes: counted per (account,
// address), so an attacker's wrong codes do not use up the owner's, plus an account-wide
// ceiling against many addresses that, like the password one, spares known addresses.
const TOTP_LOGIN_PER_ACCOUNT_IP = { max: 10, windowSeconds: 15 * 60 };
const TOTP_LOGIN_PER_ACCOUNT = { max: 30, windowSeconds: 15 * 60 };
const USERNAME_OR_EMAIL_TAKEN = "Username or email already exists";
const MFA_EXPIRED = "The sign-in attempt expired. Please sign in again.";
/** Password confirmations before sensitive changes: enough for typos, too few for guessing. */
const STEP_UP_PER_USER = { max: 10, windowSeconds: 15 * 60 };
const NO_PASSWORD = "This account signs in with GitHub or Google and has no password.";

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
}

export function createAccounts({ db, tokens, mailer, limiter, publicUrl, scoring, webSessions, audit }: AccountsDeps) {
  const byId = (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  const sshProofs = createSshKeyProofs(db);

  async function view(u: UserRow): Promise<OwnUser> {
    const [linked, stats] = await Promise.all([
      db.selectFrom("oauth_accounts").select("provider").where("user_id", "=", u.id).execute(),
      scoring?.userStats(u.id),
    ]);
    return ownUser(u, [...new Set(linked.map((l) => l.provider))], stats);
  }

  async function requireUser(id: string): Promise<UserRow> {
    const u = await byId(id);
    if (!u) throw unauthorized("User no longer exists");
    return u;
  }

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
    await mailer.send({
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

  async function update(id: string, values: Partial<UserRow>) {
    await db.updateTable("users").set({ ...values, updated_at: nowSeconds() }).where("id", "=", id).execute();
  }

  async function issueLogin(u: UserRow): Promise<LoginResult> {
    await audit?.record({ action: "auth.login", actorId: u.id, actorName: u.username, target: u.username });
    return { mfa_required: false, ...(await tokens.issue(u)), user: await view(u) };
  }

  /** After the first factor: tokens, or a short-lived challenge when 2FA is on. */
  async function startLogin(u: UserRow): Promise<LoginResult> {
    // Every way in (password, OAuth) passes here: a disabled account stops at the door.
    if (await isDisabled(db, u.id)) {
      await audit?.record({ action: "auth.login_failed", actorId: u.id, actorName: u.username, target: u.username, detail: { reason: "disabled" } });
      throw forbidden(ACCOUNT_DISABLED);
    }
    if (u.totp_enabled !== 1) return issueLogin(u);
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

  const knownKey = (account: string, addr: string) => `login-known:${account}:${addr}`;
  /** Has this address completed a sign-in to the account lately (see KNOWN_ADDRESS)? */
  const isKnownAddress = (account: string, addr: string) => limiter.count(knownKey(account, addr)) > 0;
  const rememberAddress = (account: string, addr: string) => {
    limiter.reset(knownKey(account, addr));
    limiter.hit(knownKey(account, addr), KNOWN_ADDRESS);
  };

  /**
   * Accepts a TOTP code once: the step must be newer than the last one used. `from` is the
   * address key of a sign-in; without it the caller is the signed-in owner.
   */
  async function acceptTotp(u: UserRow, code: string, from?: string): Promise<boolean> {
    if (from === undefined) limiter.consume(`totp:${u.id}`, TOTP_PER_USER);
    else {
      const limits: [string, Limit][] = [[`totp-login:${u.id}:${from}`, TOTP_LOGIN_PER_ACCOUNT_IP]];
      if (!isKnownAddress(u.id, from)) limits.push([`totp-login:${u.id}`, TOTP_LOGIN_PER_ACCOUNT]);
      limiter.consumeAll(limits);
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
   * The answer to a registration with an address that already has an account: what a new
   * account would get (the row as it would have been stored, with the database's defaults), and
   * a mail to the address's owner instead of a verification link. Nothing is stored.
   */
  async function registeredAgain(owner: UserRow, row: Omit<UserRow, "is_admin" | "is_verified" | "theme" | "totp_enabled" | "notify_new_challenges" | "notify_solution_feedback" | "notify_leaderboard_updates" | "notify_marketing" | "plan" | "plan_until">): Promise<OwnUser> {
    await mailer.send({
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
    return view({
      ...row,
      is_admin: 0,
      is_verified: 0,
      theme: "dark",
      totp_enabled: 0,
      notify_new_challenges: 1,
      notify_solution_feedback: 1,
      notify_leaderboard_updates: 0,
      notify_marketing: 0,
      plan: "free",
      plan_until: null,
    });
  }

  /**
   * Step-up for changing the SSH key. An account with neither a password nor 2FA (GitHub or
   * Google sign-in only) has nothing to confirm with: its session is all there is.
   */
  async function confirmKeyChange(u: UserRow, proof: StepUpProof): Promise<void> {
    if (!u.password_hash && u.totp_enabled !== 1) return;
    await confirmIdentity(u, proof);
  }

  /**
   * Re-authentication before a sensitive change: the current password, or (for accounts with
   * 2FA on) a current TOTP code, accepted once. Throws 400 with what was wrong.
   */
  async function confirmIdentity(u: UserRow, proof: StepUpProof): Promise<void> {
    if (proof.current_password !== undefined) {
      if (!u.password_hash) throw badRequest(NO_PASSWORD);
      limiter.consume(`step-up:${u.id}`, STEP_UP_PER_USER);
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

  return {
    byId,
    view,
    startLogin,
    confirmIdentity,
    sendVerification,

    /**
     * Usernames are public (profiles), so a taken one is said. An e-mail address is not: for
     * an address that already has an account the answer is the one a new account gets (201,
     * the same fields, the same password-hashing time), and the address's owner is told by mail
     * that someone tried; the form cannot be used to learn who has an account here.
     */
    async register(input: { username: string; email: string; password: string }, ip: string): Promise<OwnUser> {
      limiter.consume(`register:${addressKey(ip)}`, REGISTER_PER_IP);
      const email = input.email.toLowerCase();
      const nameTaken = await db
        .selectFrom("users")
        .select("id")
        .where((eb) => eb(eb.fn("lower", ["username"]), "=", input.username.toLowerCase()))
        .executeTakeFirst();
      if (nameTaken) throw conflict(USERNAME_OR_EMAIL_TAKEN);
      const row = {
        id: randomUUID(),
        username: input.username,
        email,
        password_hash: await hashPassword(input.password),
        display_name: null,
        bio: null,
        location: null,
        github_username: null,
        oauth_provider: null,
        ssh_public_key: null,
        ssh_key_fingerprint: null,
        totp_secret: null,
        totp_last_step: null,
        created_at: nowSeconds(),
        updated_at: nowSeconds(),
      };
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
    },

    async login(input: { username_or_email: string; password: string }, ip: string): Promise<LoginResult> {
      const id = input.username_or_email.trim().toLowerCase();
      const addr = addressKey(ip);
      const ipKey = `login-ip:${addr}`;
      limiter.check(ipKey, LOGIN_PER_IP); // refused floods cost no database query
      const u = await db
        .selectFrom("users")
        .selectAll()
        .where((eb) => eb.or([eb(eb.fn("lower", ["username"]), "=", id), eb("email", "=", id)]))
        .executeTakeFirst();
      // Keyed on the account, not on the name typed: username and e-mail share one allowance.
      const account = u ? u.id : `name:${id}`;
      const pairKey = `login-acct-ip:${account}:${addr}`;
      const accountKey = `login-acct:${account}`;
      const known = isKnownAddress(account, addr);
      const limits: [string, Limit][] = [
        [ipKey, LOGIN_PER_IP],
        [pairKey, LOGIN_PER_ACCOUNT_IP],
      ];
      if (!known) limits.push([accountKey, LOGIN_PER_ACCOUNT]);
      limiter.consumeAll(limits);
      const ok = await verifyPassword(u?.password_hash ?? null, input.password);
      if (!u || !ok) {
        await audit?.record({ action: "auth.login_failed", actorId: u?.id ?? null, actorName: input.username_or_email.trim().slice(0, 100), target: u?.username ?? null, detail: { reason: "password" } });
        throw unauthorized("Incorrect username or password");
      }
      // The right password: not a failure. Its counts go back and the address's typos are forgiven.
      limiter.refund(ipKey);
      if (!known) limiter.refund(accountKey);
      limiter.reset(pairKey);
      // With 2FA on, the address is known only once the second factor is given too.
      if (u.totp_enabled !== 1) rememberAddress(u.id, addr);
      return startLogin(u);
    },

    /** Completes a login that needed a second factor. */
    async loginSecondFactor(input: { mfa_token: string; code: string }, ip: string): Promise<LoginResult> {
      const hash = hashToken(input.mfa_token);
      const challenge = await db
        .selectFrom("verifications")
        .selectAll()
        .where("token_hash", "=", hash)
        .where("purpose", "=", "login-2fa")
        .executeTakeFirst();
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
      const known = isKnownAddress(u.id, addr);
      if (!(await acceptTotp(u, input.code, addr))) {
        await audit?.record({ action: "auth.login_failed", actorId: u.id, actorName: u.username, target: u.username, detail: { reason: "2fa code" } });
        throw unauthorized("Invalid verification code");
      }
      // The right code is not a failure: its counts go back.
      limiter.reset(`totp-login:${u.id}:${addr}`);
      if (!known) limiter.refund(`totp-login:${u.id}`);
      await db.deleteFrom("verifications").where("token_hash", "=", hash).execute();
      rememberAddress(u.id, addr);
      return issueLogin(u);
    },

    async refresh(refreshToken: string) {
      return tokens.rotate(refreshToken, byId);
    },

    async logout(refreshToken: string | undefined) {
      if (refreshToken) await tokens.revoke(refreshToken);
    },

    async verifyEmail(token: string): Promise<EmailVerified> {
      const row = await db
        .selectFrom("verifications")
        .selectAll()
        .where("token_hash", "=", hashToken(token))
        .where("purpose", "=", "email")
        .executeTakeFirst();
      if (!row || row.expires_at <= nowSeconds()) {
        throw badRequest("The verification link is invalid or has expired.");
      }
      await db.deleteFrom("verifications").where("token_hash", "=", row.token_hash).execute();
      await update(row.user_id, { is_verified: 1 });
      return { message: "Email verified", user: await view(await requireUser(row.user_id)) };
    },

    /** Re-sends the link. By e-mail it answers the same whether or not the address is known. */
    async resendVerification(who: { userId: string } | { email: string }): Promise<Message> {
      const u =
        "userId" in who
          ? await byId(who.userId)
          : await db.selectFrom("users").selectAll().where("email", "=", who.email.toLowerCase()).executeTakeFirst();
      const generic = { message: "If the account exists and is not verified yet, a new link is on its way." };
      if (u && u.is_verified === 0) {
        try {
          limiter.consume(`resend:${u.id}`, RESEND_PER_USER);
        } catch (e) {
          // Asked by address, a 429 would tell a stranger the account exists: stay generic.
          if ("email" in who) return generic;
          throw e;
        }
        await sendVerification(u);
      }
      return generic;
    },

    async me(userId: string): Promise<OwnUser> {
      return view(await requireUser(userId));
    },

    async publicProfile(username: string): Promise<PublicUser> {
      const u = await db
        .selectFrom("users")
        .selectAll()
        .where(({ eb, fn }) => eb(fn("lower", ["username"]), "=", username.toLowerCase()))
        .executeTakeFirst();
      if (!u) throw notFound("User not found");
      return publicUser(u, await scoring?.userStats(u.id));
    },

    async updateProfile(userId: string, input: ProfileUpdate): Promise<OwnUser> {
      await update(userId, input);
      return view(await requireUser(userId));
    },

    async updateNotifications(userId: string, prefs: NotificationsUpdate): Promise<OwnUser> {
      const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? (1 as const) : (0 as const));
      await update(userId, {
        notify_new_challenges: flag(prefs.newChallenges),
        notify_solution_feedback: flag(prefs.solutionFeedback),
        notify_leaderboard_updates: flag(prefs.leaderboardUpdates),
        notify_marketing: flag(prefs.marketingEmails),
      });
      return view(await requireUser(userId));
    },

    /** Changes the password and ends every other login; returns fresh tokens for this one. */
    async changePassword(userId: string, input: PasswordChange): Promise<PasswordChanged> {
      const u = await requireUser(userId);
      if (!u.password_hash) throw badRequest("This account signs in with GitHub or Google and has no password.");
      limiter.consume(`password-change:${userId}`, LOGIN_PER_ACCOUNT_IP);
      if (!(await verifyPassword(u.password_hash, input.current_password))) {
        throw badRequest("Current password is incorrect");
      }
      await update(userId, { password_hash: await hashPassword(input.new_password) });
      await tokens.revokeAllForUser(userId);
      // Every browser signed in with the old password is signed out now (and its live sockets
      // closed), not when its access token runs out; the caller gets a fresh pair below.
      await webSessions?.destroyAllForUser(userId);
      return { message: "Password changed", ...(await tokens.issue(u)) };
    },

    async getSshKey(userId: string): Promise<SshKeyStatus> {
      const v = await view(await requireUser(userId));
      return { has_ssh_key: v.has_ssh_key, ssh_key_preview: v.ssh_key_preview, fingerprint: v.ssh_key_fingerprint };
    },

    /** A nonce to sign with the SSH key about to be saved (proof of possession). */
    async sshKeyNonce(userId: string): Promise<SshKeyNonce> {
      await requireUser(userId);
      return sshProofs.issue(userId);
    },

    /**
     * Saves the account's SSH key, only with a signature by that key over a nonce this account
     * was given (public keys are public: without it anyone could take someone's key and have
     * their ssh land in a deployment of theirs). Replacing a key also needs the step-up.
     */
    async setSshKey(userId: string, input: { key: string; nonce: string; signature: string } & StepUpProof): Promise<SshKeySaved> {
      const key = parseSshPublicKey(input.key);
      const u = await requireUser(userId);
      if (u.ssh_public_key && u.ssh_key_fingerprint !== key.fingerprint) await confirmKeyChange(u, input);
      await sshProofs.prove(userId, key.blob, input.nonce, input.signature);
      try {
        await update(userId, { ssh_public_key: key.line, ssh_key_fingerprint: key.fingerprint });
        await audit?.record({ action: "ssh_key.set", actorId: userId, detail: { fingerprint: key.fingerprint } });
      } catch (e) {
        // The unique index on the fingerprint (migration 0003): the key belongs to another account.
        if (/unique|duplicate/i.test(String((e as Error)?.message))) {
          throw conflict("This SSH key is already registered to another account. Use a key of your own.");
        }
        throw e;
      }
      return { message: "SSH key saved", has_ssh_key: true, fingerprint: key.fingerprint };
    },

    /** Removing the key needs the step-up too (delete, then save, is a replacement). */
    async deleteSshKey(userId: string, proof: StepUpProof = {}): Promise<SshKeyDeleted> {
      const u = await requireUser(userId);
      if (u.ssh_public_key) await confirmKeyChange(u, proof);
      await update(userId, { ssh_public_key: null, ssh_key_fingerprint: null });
      await audit?.record({ action: "ssh_key.deleted", actorId: userId });
      return { message: "SSH key deleted", has_ssh_key: false };
    },

    /** Starts 2FA set-up: a new secret, kept pending until a code for it is verified. */
    async setupTotp(userId: string): Promise<TotpSetup> {
      const u = await requireUser(userId);
      if (u.totp_enabled === 1) throw conflict("Two-factor authentication is already enabled");
      const secret = newTotpSecret();
      await update(userId, { totp_secret: secret, totp_last_step: null });
      const otpauth_url = totpUri(secret, u.username);
      return { secret, otpauth_url, qr_code_url: await QRCode.toDataURL(otpauth_url, { margin: 1, width: 220 }) };
    },

    async enableTotp(userId: string, input: { token: string; secret: string }): Promise<TotpChanged> {
      const u = await requireUser(userId);
      if (u.totp_enabled === 1) throw conflict("Two-factor authentication is already enabled");
      if (!u.totp_secret || !safeEqual(u.totp_secret, input.secret.trim().toUpperCase())) {
        throw badRequest("Start the two-factor set-up again: this secret is not the one issued.");
      }
      if (!(await acceptTotp(u, input.token))) throw badRequest("Invalid verification code");
      await update(userId, { totp_enabled: 1 });
      await audit?.record({ action: "auth.2fa_enabled", actorId: userId });
      return { message: "Two-factor authentication enabled", enabled: true };
    },

    /**
     * Step-up: turning 2FA off needs the current password or a current code, so a stolen
     * cookie or access token alone cannot remove the second factor.
     */
    async disableTotp(userId: string, proof: StepUpProof): Promise<TotpChanged> {
      const u = await requireUser(userId);
      if (u.totp_enabled !== 1) throw conflict("Two-factor authentication is not enabled");
      await confirmIdentity(u, proof);
      await update(userId, { totp_enabled: 0, totp_secret: null, totp_last_step: null });
      await audit?.record({ action: "auth.2fa_disabled", actorId: userId });
      return { message: "Two-factor authentication disabled", enabled: false };
    },

    async setAdmin(username: string, isAdmin: boolean) {
      const res = await db
        .updateTable("users")
        .set({ is_admin: isAdmin ? 1 : 0 })
        .where(({ eb, fn }) => eb(fn("lower", ["username"]), "=", username.toLowerCase()))
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw notFound(`No user named ${username}`);
    },
  };
}
export type Accounts = ReturnType<typeof createAccounts>;
