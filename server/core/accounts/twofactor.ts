// Two-factor authentication (TOTP): set-up (a pending secret), enabling it with a first code, and
// turning it off behind the step-up. Codes at sign-in are sign-in.ts's; accepting a code once is
// context.ts's acceptTotp.
import QRCode from "qrcode";
import type { StepUpProof, TotpChanged, TotpSetup } from "../../../shared/contract/index.ts";
import { badRequest, conflict } from "../errors.ts";
import { safeEqual } from "../secrets.ts";
import { newTotpSecret, totpUri } from "../totp.ts";
import type { AccountsContext } from "./context.ts";

export function createTwoFactor(ctx: AccountsContext) {
  const { audit } = ctx.deps;
  const { requireUser, update, acceptTotp, confirmIdentity } = ctx;

  /** Starts 2FA set-up: a new secret, kept pending until a code for it is verified. */
  async function setupTotp(userId: string): Promise<TotpSetup> {
    const u = await requireUser(userId);
    if (u.totp_enabled === 1) throw conflict("Two-factor authentication is already enabled");
    const secret = newTotpSecret();
    await update(userId, { totp_secret: secret, totp_last_step: null });
    const otpauth_url = totpUri(secret, u.username);
    return { secret, otpauth_url, qr_code_url: await QRCode.toDataURL(otpauth_url, { margin: 1, width: 220 }) };
  }

  async function enableTotp(userId: string, input: { token: string; secret: string }): Promise<TotpChanged> {
    const u = await requireUser(userId);
    if (u.totp_enabled === 1) throw conflict("Two-factor authentication is already enabled");
    if (!u.totp_secret || !safeEqual(u.totp_secret, input.secret.trim().toUpperCase())) {
      throw badRequest("Start the two-factor set-up again: this secret is not the one issued.");
    }
    if (!(await acceptTotp(u, input.token))) throw badRequest("Invalid verification code");
    await update(userId, { totp_enabled: 1 });
    await audit?.record({ action: "auth.2fa_enabled", actorId: userId });
    return { message: "Two-factor authentication enabled", enabled: true };
  }

  /**
   * Step-up: turning 2FA off needs the current password or a current code, so a stolen
   * cookie or access token alone cannot remove the second factor.
   */
  async function disableTotp(userId: string, proof: StepUpProof): Promise<TotpChanged> {
    const u = await requireUser(userId);
    if (u.totp_enabled !== 1) throw conflict("Two-factor authentication is not enabled");
    await confirmIdentity(u, proof);
    await update(userId, { totp_enabled: 0, totp_secret: null, totp_last_step: null });
    await audit?.record({ action: "auth.2fa_disabled", actorId: userId });
    return { message: "Two-factor authentication disabled", enabled: false };
  }

  return { setupTotp, enableTotp, disableTotp };
}
