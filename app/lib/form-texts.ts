// The forms' texts and small helpers, free of zod: a page that shows one of these without the
// form's validation (the challenge page's deployment panel shows SETTINGS.sshRequired) carries
// no schema and no zod. ./forms.ts re-exports them beside the schemas.
import { VERIFY_TO_START } from "#shared/rules.ts";

export const REQUIRED = "Please fill in all required fields";
export const INVALID_EMAIL = "Please enter a valid email address";
export const PASSWORDS_DIFFER = "Passwords do not match";
export const PASSWORD_SHORT = "Password must be at least 8 characters long";

/** An OpenSSH line goes base64-encoded (`ssh_public_key_b64`, docs/api.md); anything else goes as typed. */
export function encodeSshKey(text: string): string {
  const key = text.trim();
  if (!key.startsWith("ssh-") && !key.startsWith("ecdsa-")) return key;
  // UTF-8 first: a key comment may hold any character, and btoa takes only Latin-1.
  return btoa(Array.from(new TextEncoder().encode(key), (b) => String.fromCharCode(b)).join(""));
}

// Settings messages, word for word as users see them (the server's detail wins when present).
export const SETTINGS = {
  unverified: VERIFY_TO_START,
  verificationSent: "Verification email sent",
  profileSaved: "Profile saved",
  passwordChanged: "Password changed",
  notificationsSaved: "Notifications saved",
  totpSetupFailed: "Failed to initiate 2FA setup",
  totpInvalid: "Invalid verification code",
  totpDisableFailed: "Failed to disable 2FA",
  totpDisableConfirm: "Are you sure you want to disable 2FA? This will make your account less secure.",
  sshSaveFailed: "Failed to update SSH key",
  sshDeleteFailed: "Failed to delete SSH key",
  sshDeleteConfirm: "Are you sure you want to delete your SSH public key?",
  sshRequired: "An SSH key is required to access challenge environments.",
} as const;

/** Registration failures: the server's detail when present, else a fixed fallback by status. */
export function registrationError(status: number, detail: string): string {
  if (detail) return detail;
  if (status === 409) return "Username or email already exists";
  if (status === 400) return "Invalid registration data";
  if (status === 404) return "Registration endpoint not found";
  return "Failed to register";
}
