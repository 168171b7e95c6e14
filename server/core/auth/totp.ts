// RFC 6238 time-based codes: SHA-1, 6 digits, 30 s step, one step of drift either way.
import * as OTPAuth from "otpauth";

export const TOTP_PERIOD = 30;

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

function totp(secret: string, label = "faultline") {
  return new OTPAuth.TOTP({
    issuer: "faultline",
    label,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

export const totpUri = (secret: string, username: string) => totp(secret, username).toString();

/**
 * Returns the time step the code belongs to, or null when it matches none within the drift.
 * Callers store the step and refuse a step not newer than the last one accepted.
 */
export function matchTotp(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD) + delta;
}

export const totpCode = (secret: string, now = Date.now()) => totp(secret).generate({ timestamp: now });
