// Form schemas of the web, with the spec's messages word for word.
import { z } from "zod";
import {
  BIO_MAX,
  DISPLAY_NAME_MAX,
  LOCATIONS,
  NOTIFICATION_KEYS,
  type NotificationKey,
  PASSWORD_MAX,
  PASSWORD_MIN,
  STEP_UP_REQUIRED,
  USERNAME_PATTERN,
  USERNAME_RULE,
  VERIFY_TO_START,
} from "../../shared/rules.ts";

export const REQUIRED = "Please fill in all required fields";
export const INVALID_EMAIL = "Please enter a valid email address";
export const PASSWORDS_DIFFER = "Passwords do not match";
export const PASSWORD_SHORT = "Password must be at least 8 characters long";

const required = () => z.string({ error: REQUIRED }).trim().min(1, REQUIRED);

export const loginSchema = z.object({
  username: required(),
  password: z.string({ error: REQUIRED }).min(1, REQUIRED),
  redirectTo: z.string().optional(),
});

export const registerSchema = z
  .object({
    username: required().regex(USERNAME_PATTERN, USERNAME_RULE),
    email: z.string({ error: INVALID_EMAIL }).trim().refine((v) => v.includes("@"), INVALID_EMAIL),
    password: z.string({ error: REQUIRED }).min(PASSWORD_MIN, PASSWORD_SHORT),
    confirmPassword: z.string({ error: PASSWORDS_DIFFER }),
  })
  .refine((d) => d.password === d.confirmPassword, { path: ["confirmPassword"], message: PASSWORDS_DIFFER });

export const secondFactorSchema = z.object({
  code: z.string({ error: "Enter the 6-digit code" }).trim().regex(/^\d{6}$/, "Enter the 6-digit code"),
});

// Settings forms. Conform turns an empty field into undefined and an unchecked box is absent,
// so the action maps undefined to null (cleared) and to false (unchecked).
export const profileSchema = z.object({
  display_name: z.string().trim().max(DISPLAY_NAME_MAX, `At most ${DISPLAY_NAME_MAX} characters`).optional(),
  bio: z.string().trim().max(BIO_MAX, `At most ${BIO_MAX} characters`).optional(),
  location: z.union([z.enum(LOCATIONS), z.literal("")]).optional(),
  /** The "Dark theme" checkbox: present means dark, absent means light. */
  dark_theme: z.boolean().optional(),
});

export const notificationsSchema = z.object(
  Object.fromEntries(NOTIFICATION_KEYS.map((k) => [k, z.boolean().optional()])) as Record<
    NotificationKey,
    z.ZodOptional<z.ZodBoolean>
  >,
);

export const sshKeySchema = z.object({
  ssh_key: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(16_000, "That is too long for an SSH public key"),
  // Proof of possession: the code shown (hidden field) and its signature by the key.
  nonce: z.string({ error: "The signing code is missing: reload the page." }).trim().min(1).max(200),
  signature: z
    .string({ error: REQUIRED })
    .trim()
    .max(16_000, "That is too long for an SSH signature")
    .refine((v) => v.includes("-----BEGIN SSH SIGNATURE-----") && v.includes("-----END SSH SIGNATURE-----"), {
      message: "Paste the whole signature, from -----BEGIN SSH SIGNATURE----- to -----END SSH SIGNATURE-----",
    }),
});

/** The spec sends the key base64-encoded when it is an OpenSSH line; anything else goes as typed. */
export function encodeSshKey(text: string): string {
  const key = text.trim();
  if (!key.startsWith("ssh-") && !key.startsWith("ecdsa-")) return key;
  // UTF-8 first: a key comment may hold any character, and btoa takes only Latin-1.
  return btoa(Array.from(new TextEncoder().encode(key), (b) => String.fromCharCode(b)).join(""));
}

// Settings messages: the spec's catalogue word for word (the server's detail wins when present).
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

/**
 * Turning 2FA off asks who it is first (a stolen session alone must not do it): the current
 * password or a current code. Empty fields arrive as undefined (conform).
 */
export const totpDisableSchema = z
  .object({
    current_password: z.string().max(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters`).optional(),
    code: z.string().trim().regex(/^\d{6}$/, "Enter the 6-digit code").optional(),
  })
  .refine((d) => d.current_password !== undefined || d.code !== undefined, { message: STEP_UP_REQUIRED });

/** Deleting the SSH key asks the same (delete, then save, would replace it). */
export const sshKeyDeleteSchema = totpDisableSchema;

export const passwordChangeSchema = z
  .object({
    current_password: z.string({ error: REQUIRED }).min(1, REQUIRED),
    new_password: z.string({ error: REQUIRED }).min(PASSWORD_MIN, PASSWORD_SHORT),
    confirm_password: z.string({ error: REQUIRED }).min(1, REQUIRED),
  })
  .refine((d) => d.new_password === d.confirm_password, { path: ["confirm_password"], message: PASSWORDS_DIFFER });

/** Registration failures: the server's detail when present, else the spec's fallback by status. */
export function registrationError(status: number, detail: string): string {
  if (detail) return detail;
  if (status === 409) return "Username or email already exists";
  if (status === 400) return "Invalid registration data";
  if (status === 404) return "Registration endpoint not found";
  return "Failed to register";
}
