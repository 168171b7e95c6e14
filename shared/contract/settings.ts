// The API's JSON shapes for a user's own settings: profile, password, notifications, the SSH key
// with its proof of possession and step-up, two-factor (docs/api.md, "Users" and "Two-factor
// authentication").
import type { NotificationKey } from "../rules.ts";
import type { Message, Theme, TokenPair } from "./accounts.ts";

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
export type PasswordChanged = Message & TokenPair;

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
export interface SshKeyStatus {
  has_ssh_key: boolean;
  ssh_key_preview: string | null;
  fingerprint: string | null;
}

/** POST /users/me/ssh-key/nonce: the code to sign with ssh-keygen -Y sign. */
export interface SshKeyNonce {
  nonce: string;
  namespace: string;
  /** Seconds. */
  expires_in: number;
  /** What to run, with the default key file; the user names another with -f. */
  sign_command: string;
}

/** PUT /users/me/ssh-key. */
export interface SshKeyPut extends StepUpProof {
  ssh_public_key_b64: string;
  nonce: string;
  signature: string;
}

/** PUT /users/me/ssh-key answers with the saved key's fingerprint, DELETE without. */
export type SshKeySaved = Message & { has_ssh_key: true; fingerprint: string };
export type SshKeyDeleted = Message & { has_ssh_key: false };

/** POST /auth/2fa/setup: the current password, when the account has one. */
export interface TotpSetupRequest {
  current_password?: string;
}

/** POST /auth/2fa/setup: the secret to enter or scan (not active until verified). */
export interface TotpSetup {
  secret: string;
  otpauth_url: string;
  qr_code_url: string;
}

/** POST /auth/2fa/verify: a code for the pending secret turns two-factor on. */
export interface TotpVerify {
  token: string;
  secret: string;
}

/** POST /auth/2fa/verify and /auth/2fa/disable. */
export type TotpChanged = Message & { enabled: boolean };

/** POST /auth/2fa/verify: 2FA is on; the recovery codes, shown this once (10, each works once). */
export type TotpEnabled = TotpChanged & { enabled: true; recovery_codes: string[] };

/** POST /auth/2fa/recovery-codes: a new set; the old codes no longer work. */
export type RecoveryCodes = Message & { recovery_codes: string[] };

/** GET /auth/2fa: the account's second factor as its owner sees it. Times are epoch seconds. */
export interface TotpStatus {
  enabled: boolean;
  enabled_at: number | null;
  /** From when its codes confirm an e-mail change, a key change or a deletion (in a sign-in
   *  other than the one that turned it on); null when 2FA is off. */
  step_up_from: number | null;
  /** Whether this sign-in turned it on (its codes never confirm those changes here). */
  enrolled_in_this_sign_in: boolean;
  recovery_codes_left: number;
  /** "Lost my authenticator": when 2FA goes unless a sign-in with it comes first; else null. */
  removal_at: number | null;
}

/** POST /auth/2fa/removal/confirm: the link from the mail was followed. */
export type TotpRemovalScheduled = Message & { removal_at: number };
