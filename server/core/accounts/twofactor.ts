// Two-factor authentication (TOTP): set-up (behind the current password when the account has
// one), enabling it with a first code (which also makes the recovery codes, shown once), its
// state as the owner sees it, new recovery codes and turning it off behind the step-up, and the
// administrator's reset. Each change is mailed to the owner (after the answer). Codes at sign-in
// are sign-in.ts's; accepting a code once and the step-up rules are context.ts's; the "lost my
// authenticator" path is lost-authenticator.ts's (decision 017).
import QRCode from "qrcode";
import type { FactorProof, RecoveryCodes, TotpChanged, TotpEnabled, TotpSetup, TotpSetupRequest, TotpStatus } from "#shared/contract/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import { badRequest, conflict } from "#server/core/errors.ts";
import { safeEqual } from "#server/core/secrets.ts";
import { newTotpSecret, totpUri } from "#server/core/auth/totp.ts";
import type { UserRow } from "#server/core/users.ts";
import type { AccountsContext } from "./context.ts";

export const SETUP_NEEDS_PASSWORD = "Confirm with your current password to turn on two-factor authentication";
const NOT_ENABLED = "Two-factor authentication is not enabled";
const IF_NOT_YOU = "If this was not you, change your password now (that signs you out everywhere) and tell the administrators.";

export function createTwoFactor(ctx: AccountsContext) {
  const { audit } = ctx.deps;
  const { requireUser, update, acceptTotp, confirmPassword, confirmIdentity, removeSecondFactor, recoveryCodes, notify, stepUpFrom } = ctx;

  /**
   * Starts 2FA set-up: a new secret, kept pending until a code for it is verified. An account
   * with a password gives it first (decision 017): a stolen session alone cannot add a factor.
   */
  async function setupTotp(userId: string, input: TotpSetupRequest = {}): Promise<TotpSetup> {
    const u = await requireUser(userId);
    if (u.totp_enabled === 1) throw conflict("Two-factor authentication is already enabled");
    if (u.password_hash) {
      if (input.current_password === undefined) throw badRequest(SETUP_NEEDS_PASSWORD);
      await confirmPassword(u, input.current_password);
    }
    const secret = newTotpSecret();
    await update(userId, { totp_secret: secret, totp_last_step: null });
    const otpauth_url = totpUri(secret, u.username);
    return { secret, otpauth_url, qr_code_url: await QRCode.toDataURL(otpauth_url, { margin: 1, width: 220 }) };
  }

  /** Turns 2FA on with a first code; `session` is the sign-in doing it (see context.ts). */
  async function enableTotp(userId: string, input: { token: string; secret: string; session?: string | null }): Promise<TotpEnabled> {
    const u = await requireUser(userId);
    if (u.totp_enabled === 1) throw conflict("Two-factor authentication is already enabled");
    if (!u.totp_secret || !safeEqual(u.totp_secret, input.secret.trim().toUpperCase())) {
      throw badRequest("Start the two-factor set-up again: this secret is not the one issued.");
    }
    if (!(await acceptTotp(u, input.token))) throw badRequest("Invalid verification code");
    // Only a pending set-up turns on: two parallel verifies do not both make codes.
    const res = await ctx.deps.db
      .updateTable("users")
      .set({ totp_enabled: 1, totp_enabled_at: nowSeconds(), totp_session: input.session ?? null, totp_removal_at: null, updated_at: nowSeconds() })
      .where("id", "=", userId)
      .where("totp_enabled", "=", 0)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw conflict("Two-factor authentication is already enabled");
    const codes = await recoveryCodes.issue(userId);
    await audit?.record({ action: "auth.2fa_enabled", actorId: userId });
    notify(u, "Two-factor authentication is on for your faultline account", [
      "Two-factor authentication was turned on for your faultline account: signing in now asks for a code from an authenticator app too.",
      "",
      IF_NOT_YOU,
    ]);
    return { message: "Two-factor authentication enabled", enabled: true, recovery_codes: codes };
  }

  /** The owner's view of the factor; `session` tells whether this sign-in added it. */
  async function totpStatus(userId: string, session?: string | null): Promise<TotpStatus> {
    const u = await requireUser(userId);
    const enabled = u.totp_enabled === 1;
    return {
      enabled,
      enabled_at: enabled ? u.totp_enabled_at : null,
      step_up_from: stepUpFrom(u),
      enrolled_in_this_sign_in: enabled && !!session && session === u.totp_session,
      recovery_codes_left: enabled ? await recoveryCodes.left(userId) : 0,
      removal_at: enabled ? u.totp_removal_at : null,
    };
  }

  /** A new set of recovery codes (the old ones stop working), behind the step-up. */
  async function newRecoveryCodes(userId: string, proof: FactorProof): Promise<RecoveryCodes> {
    const u = await requireUser(userId);
    if (u.totp_enabled !== 1) throw conflict(NOT_ENABLED);
    await confirmIdentity(u, proof, { factorChange: true });
    const codes = await recoveryCodes.issue(userId);
    await audit?.record({ action: "auth.2fa_recovery_codes", actorId: userId });
    notify(u, "New recovery codes for your faultline account", [
      "New two-factor recovery codes were made for your faultline account; the old ones no longer work.",
      "",
      IF_NOT_YOU,
    ]);
    return { message: "New recovery codes made: the old ones no longer work", recovery_codes: codes };
  }

  /**
   * Step-up: turning 2FA off needs the current password, a current code or a recovery code, so
   * a stolen cookie or access token alone cannot remove the second factor.
   */
  async function disableTotp(userId: string, proof: FactorProof): Promise<TotpChanged> {
    const u = await requireUser(userId);
    if (u.totp_enabled !== 1) throw conflict(NOT_ENABLED);
    await confirmIdentity(u, proof, { factorChange: true });
    await removeSecondFactor(userId);
    await audit?.record({ action: "auth.2fa_disabled", actorId: userId });
    disabledNotice(u, "You (or someone signed in to your account) turned it off in the settings.");
    return { message: "Two-factor authentication disabled", enabled: false };
  }

  function disabledNotice(u: UserRow, why: string) {
    notify(u, "Two-factor authentication is off for your faultline account", [
      "Two-factor authentication was turned off for your faultline account: signing in no longer asks for a code.",
      why,
      "",
      IF_NOT_YOU,
    ]);
  }

  /** The admin console's reset (the console records who did it); false when 2FA was off. */
  async function resetByAdmin(userId: string): Promise<boolean> {
    const u = await requireUser(userId);
    if (u.totp_enabled !== 1) return false;
    await removeSecondFactor(userId);
    disabledNotice(u, "An administrator reset it: you can turn it on again in your settings.");
    return true;
  }

  return { setupTotp, enableTotp, totpStatus, newRecoveryCodes, disableTotp, disabledNotice, resetByAdmin };
}
export type TwoFactor = ReturnType<typeof createTwoFactor>;
