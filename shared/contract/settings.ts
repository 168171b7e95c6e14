// The API's JSON shapes for a user's own settings: profile, password, notifications, the SSH key
// with its proof of possession and step-up, two-factor (docs/api.md, "Users" and "Two-factor
// authentication").
import { z } from "zod";
import type { NotificationKey } from "#shared/rules.ts";
import { messageSchema, ownUserSchema, publicUserSchema, type Theme, tokenPairSchema } from "./accounts.ts";
import { notificationsBody, passwordChangeBody, profileBody, sshKeyBody, sshKeyDeleteBody } from "./inputs.ts";
import { defineOperations } from "./operation.ts";

/** PATCH /users/me (blank values are sent as null). */
export interface ProfileUpdate {
  display_name?: string | null;
  bio?: string | null;
  location?: string | null;
  theme?: Theme;
}

/** PUT /users/me/notifications: the preferences to change. */
export type NotificationsUpdate = Partial<Record<NotificationKey, boolean>>;

/** PUT /users/me/password. */
export interface PasswordChange {
  current_password: string;
  new_password: string;
}

/** PUT /users/me/password: the other sessions end, so the caller gets new tokens. */
export const passwordChangedSchema = messageSchema.extend(tokenPairSchema.shape);
export type PasswordChanged = z.infer<typeof passwordChangedSchema>;

/** What a user gives to confirm a sensitive change (one of the two). A code counts only from a
 *  second factor at least 24 hours old, turned on in another sign-in (decision 017). */
export interface StepUpProof {
  current_password?: string;
  code?: string;
}

/** Turning 2FA off or making new recovery codes: a recovery code is a proof here too. */
export interface FactorProof extends StepUpProof {
  recovery_code?: string;
}

/** GET /users/me/ssh-key. */
export const sshKeyStatusSchema = z.object({ has_ssh_key: z.boolean(), ssh_key_preview: z.string().nullable(), fingerprint: z.string().nullable() });
export type SshKeyStatus = z.infer<typeof sshKeyStatusSchema>;

/** POST /users/me/ssh-key/nonce: the code to sign with ssh-keygen -Y sign. */
export const sshKeyNonceSchema = z.object({
  nonce: z.string(),
  namespace: z.string(),
  /** Seconds. */
  expires_in: z.number(),
  /** What to run, with the default key file; the user names another with -f. */
  sign_command: z.string(),
});
export type SshKeyNonce = z.infer<typeof sshKeyNonceSchema>;

/** PUT /users/me/ssh-key. */
export interface SshKeyPut extends StepUpProof {
  ssh_public_key_b64: string;
  nonce: string;
  signature: string;
}

/** PUT /users/me/ssh-key answers with the saved key's fingerprint, DELETE without. */
export const sshKeySavedSchema = messageSchema.extend({ has_ssh_key: z.literal(true), fingerprint: z.string() });
export type SshKeySaved = z.infer<typeof sshKeySavedSchema>;
export const sshKeyDeletedSchema = messageSchema.extend({ has_ssh_key: z.literal(false) });
export type SshKeyDeleted = z.infer<typeof sshKeyDeletedSchema>;

/** POST /auth/2fa/setup: the current password, when the account has one. */
export interface TotpSetupRequest {
  current_password?: string;
}

/** POST /auth/2fa/setup: the secret to enter or scan (not active until verified). */
export const totpSetupSchema = z.object({ secret: z.string(), otpauth_url: z.string(), qr_code_url: z.string() });
export type TotpSetup = z.infer<typeof totpSetupSchema>;

/** POST /auth/2fa/verify: a code for the pending secret turns two-factor on. */
export interface TotpVerify {
  token: string;
  secret: string;
}

/** POST /auth/2fa/verify and /auth/2fa/disable. */
export const totpChangedSchema = messageSchema.extend({ enabled: z.boolean() });
export type TotpChanged = z.infer<typeof totpChangedSchema>;

/** POST /auth/2fa/verify: 2FA is on; the recovery codes, shown this once (10, each works once). */
export const totpEnabledSchema = messageSchema.extend({ enabled: z.literal(true), recovery_codes: z.array(z.string()) });
export type TotpEnabled = z.infer<typeof totpEnabledSchema>;

/** POST /auth/2fa/recovery-codes: a new set; the old codes no longer work. */
export const recoveryCodesSchema = messageSchema.extend({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** GET /auth/2fa: the account's second factor as its owner sees it. Times are epoch seconds. */
export const totpStatusSchema = z.object({
  enabled: z.boolean(),
  enabled_at: z.number().nullable(),
  /** From when its codes confirm an e-mail change, a key change or a deletion (in a sign-in
   *  other than the one that turned it on); null when 2FA is off. */
  step_up_from: z.number().nullable(),
  /** Whether this sign-in turned it on (its codes never confirm those changes here). */
  enrolled_in_this_sign_in: z.boolean(),
  recovery_codes_left: z.number(),
  /** "Lost my authenticator": when 2FA goes unless a sign-in with it comes first; else null. */
  removal_at: z.number().nullable(),
});
export type TotpStatus = z.infer<typeof totpStatusSchema>;

/** POST /auth/2fa/removal/confirm: the link from the mail was followed. */
export const totpRemovalScheduledSchema = messageSchema.extend({ removal_at: z.number() });
export type TotpRemovalScheduled = z.infer<typeof totpRemovalScheduledSchema>;

export const settingsOperations = defineOperations({
  getMe: { method: "GET", path: "/users/me", summary: "The signed-in user's own view", tags: ["Users"], access: "user", response: ownUserSchema },
  updateProfile: {
    method: "PATCH",
    path: "/users/me",
    summary: "Update display name, bio, location or theme",
    tags: ["Users"],
    access: "user",
    body: profileBody,
    response: ownUserSchema,
  },
  changePassword: {
    method: "PUT",
    path: "/users/me/password",
    summary: "Change the password",
    tags: ["Users"],
    access: "user",
    body: passwordChangeBody,
    errors: { 403: "Wrong current password" },
    response: passwordChangedSchema,
  },
  updateNotifications: {
    method: "PUT",
    path: "/users/me/notifications",
    summary: "Update notification preferences",
    tags: ["Users"],
    access: "user",
    body: notificationsBody,
    response: ownUserSchema,
  },
  getSshKey: {
    method: "GET",
    path: "/users/me/ssh-key",
    summary: "The registered SSH key's fingerprint, if any",
    tags: ["Users"],
    access: "user",
    response: sshKeyStatusSchema,
  },
  getSshKeyNonce: {
    method: "POST",
    path: "/users/me/ssh-key/nonce",
    summary: "A nonce to sign with the SSH key (proof of possession)",
    tags: ["Users"],
    access: "user",
    response: sshKeyNonceSchema,
  },
  setSshKey: {
    method: "PUT",
    path: "/users/me/ssh-key",
    summary: "Register or replace the SSH public key (with a signature over a nonce)",
    tags: ["Users"],
    access: "user",
    body: sshKeyBody,
    errors: { 403: "Step-up needed to replace a key" },
    response: sshKeySavedSchema,
  },
  deleteSshKey: {
    method: "DELETE",
    path: "/users/me/ssh-key",
    summary: "Remove the SSH key (step-up when the account has a password or 2FA)",
    tags: ["Users"],
    access: "user",
    body: sshKeyDeleteBody,
    errors: { 403: "Wrong password or code" },
    response: sshKeyDeletedSchema,
  },
  getPublicProfile: {
    method: "GET",
    path: "/users/:username",
    summary: "A player's public profile",
    tags: ["Users"],
    access: "public",
    personalToken: "read",
    params: z.object({ username: z.string() }),
    errors: { 404: "No such user" },
    response: publicUserSchema,
  },
});
