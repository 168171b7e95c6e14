// The two-factor operations (docs/api.md, "Two-factor authentication"; decision 017): set-up
// behind the password, enabling (recovery codes shown once), its state, new recovery codes,
// turning it off, and the lost-authenticator link. Their shapes are in settings.ts.
import { z } from "zod";
import { messageSchema } from "./accounts.ts";
import { totpDisableBody, totpRemovalRequestBody, totpSetupBody, totpVerifyBody } from "./inputs.ts";
import { defineOperations } from "./operation.ts";
import { recoveryCodesSchema, totpChangedSchema, totpEnabledSchema, totpRemovalScheduledSchema, totpSetupSchema, totpStatusSchema } from "./settings.ts";

export const totpRemovalConfirmBody = z.object({ token: z.string({ error: "is required" }).trim().min(1, "is required").max(300, "is too long") });

const tags = ["Two-factor"] as const;

export const twoFactorOperations = defineOperations({
  getTwoFactor: {
    method: "GET",
    path: "/auth/2fa",
    summary: "The account's second factor: on or off, since when, recovery codes left, a pending removal",
    tags,
    access: "user",
    returns: "{enabled, enabled_at, step_up_from, enrolled_in_this_sign_in, recovery_codes_left, removal_at} (epoch seconds)",
    response: totpStatusSchema,
  },
  setupTwoFactor: {
    method: "POST",
    path: "/auth/2fa/setup",
    summary: "Start enabling two-factor: a new TOTP secret and its otpauth URL (the current password first, when the account has one)",
    tags,
    access: "user",
    body: totpSetupBody,
    errors: { 400: "Current password missing or incorrect", 409: "Already enabled", 429: "Too many password attempts" },
    response: totpSetupSchema,
  },
  enableTwoFactor: {
    method: "POST",
    path: "/auth/2fa/verify",
    summary: "Enable two-factor with a first code; answers the 10 recovery codes, shown this once",
    tags,
    access: "user",
    body: totpVerifyBody,
    returns: "{message, enabled: true, recovery_codes}",
    errors: { 400: "Wrong code, or not the secret issued", 409: "Already enabled" },
    response: totpEnabledSchema,
  },
  renewRecoveryCodes: {
    method: "POST",
    path: "/auth/2fa/recovery-codes",
    summary: "Make new recovery codes, the old ones stop working (step-up: password, code or recovery code)",
    tags,
    access: "user",
    body: totpDisableBody,
    returns: "{message, recovery_codes}",
    errors: { 400: "Wrong password or code", 409: "Two-factor is not enabled" },
    response: recoveryCodesSchema,
  },
  disableTwoFactor: {
    method: "POST",
    path: "/auth/2fa/disable",
    summary: "Turn two-factor off (step-up: password, code or recovery code)",
    tags,
    access: "user",
    body: totpDisableBody,
    errors: { 400: "Wrong password or code", 409: "Two-factor is not enabled" },
    response: totpChangedSchema,
  },
  requestTwoFactorRemoval: {
    method: "POST",
    path: "/auth/2fa/removal",
    summary: "Lost authenticator: mail a link to the verified address (with the sign-in's mfa_token; the same answer either way)",
    tags,
    access: "public",
    body: totpRemovalRequestBody,
    status: 202,
    errors: { 401: "Expired sign-in attempt", 429: "Too many links asked for" },
    response: messageSchema,
  },
  confirmTwoFactorRemoval: {
    method: "POST",
    path: "/auth/2fa/removal/confirm",
    summary: "Lost authenticator: the mailed link's token schedules two-factor off in 3 days (a sign-in with a code cancels it)",
    tags,
    access: "public",
    body: totpRemovalConfirmBody,
    returns: "{message, removal_at}",
    errors: { 400: "Invalid, used or expired link" },
    response: totpRemovalScheduledSchema,
  },
});
