// Form schemas of the web, with the messages users see word for word (./form-texts.ts).
//
// Written with zod/mini, not zod: these schemas run in the browser too (conform validates as
// the user types, through ./parse-form.ts), and zod's classic API cannot be tree-shaken (every
// schema carries all its methods, the English messages and the `new Function` compiler), which
// put ~25 KiB (gzip) on every page. The server's actions parse the same schemas with
// @conform-to/zod/v4, so a post without JavaScript meets the same rules and messages.
// Each schema is built inside `schema(() => ...)` so that a page importing only a constant or
// one schema from a module carries no other schema (see `schema` below); the texts live in
// ./form-texts.ts for the same reason.
import * as z from "zod/mini";
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
} from "#shared/rules.ts";
import { normalizeRecoveryCode, RECOVERY_CODE_RULE } from "#shared/recovery-codes.ts";
import { PERSONAL_TOKEN_EXPIRIES, PERSONAL_TOKEN_NAME_MAX, PERSONAL_TOKEN_TEXTS } from "#shared/personal-token-rules.ts";
import { PERSONAL_TOKEN_SCOPES } from "#shared/contract/operation.ts";
import { INVALID_EMAIL, PASSWORD_SHORT, PASSWORDS_DIFFER, REQUIRED } from "./form-texts.ts";

export { encodeSshKey, INVALID_EMAIL, PASSWORD_SHORT, PASSWORDS_DIFFER, registrationError, REQUIRED, SETTINGS } from "./form-texts.ts";

/**
 * Builds a schema when the module loads, marked free of side effects for the bundler: an unused
 * schema (and the zod code only it needs) is dropped from the page. zod/mini's own functions are
 * marked so, but the `.check(...)` method calls that add rules are not, and a bundler keeps any
 * call it cannot prove harmless, with the module it sits in and everything that module imports.
 */
/* @__NO_SIDE_EFFECTS__ */
export function schema<T>(build: () => T): T {
  return build();
}

const required = () => z.string({ error: REQUIRED }).check(z.trim(), z.minLength(1, REQUIRED));

export const loginSchema = schema(() =>
  z.object({
    username: required(),
    password: z.string({ error: REQUIRED }).check(z.minLength(1, REQUIRED)),
    redirectTo: z.optional(z.string()),
  }),
);

export const registerSchema = schema(() =>
  z
    .object({
      username: required().check(z.regex(USERNAME_PATTERN, USERNAME_RULE)),
      email: z.string({ error: INVALID_EMAIL }).check(
        z.trim(),
        z.refine((v) => v.includes("@"), INVALID_EMAIL),
      ),
      password: z.string({ error: REQUIRED }).check(z.minLength(PASSWORD_MIN, PASSWORD_SHORT)),
      confirmPassword: z.string({ error: PASSWORDS_DIFFER }),
    })
    .check(z.refine((d) => d.password === d.confirmPassword, { path: ["confirmPassword"], message: PASSWORDS_DIFFER })),
);

export const secondFactorSchema = schema(() =>
  z.object({
    code: z.string({ error: "Enter the 6-digit code" }).check(z.trim(), z.regex(/^\d{6}$/, "Enter the 6-digit code")),
  }),
);

/** The second step of a sign-in with a recovery code instead (shared/recovery-codes.ts). */
export const recoveryCodeSchema = schema(() =>
  z.object({
    recovery_code: z.string({ error: RECOVERY_CODE_RULE }).check(
      z.trim(),
      z.refine((v) => normalizeRecoveryCode(v) !== null, RECOVERY_CODE_RULE),
    ),
  }),
);

// Settings forms. Conform turns an empty field into undefined and an unchecked box is absent,
// so the action maps undefined to null (cleared) and to false (unchecked).
export const profileSchema = schema(() =>
  z.object({
    display_name: z.optional(z.string().check(z.trim(), z.maxLength(DISPLAY_NAME_MAX, `At most ${DISPLAY_NAME_MAX} characters`))),
    bio: z.optional(z.string().check(z.trim(), z.maxLength(BIO_MAX, `At most ${BIO_MAX} characters`))),
    location: z.optional(z.union([z.enum(LOCATIONS), z.literal("")])),
    /** The "Dark theme" checkbox: present means dark, absent means light. */
    dark_theme: z.optional(z.boolean()),
  }),
);

export const notificationsSchema = schema(() =>
  z.object(
    Object.fromEntries(NOTIFICATION_KEYS.map((k) => [k, z.optional(z.boolean())])) as Record<NotificationKey, z.ZodMiniOptional<z.ZodMiniBoolean<boolean>>>,
  ),
);

export const sshKeySchema = schema(() =>
  z.object({
    ssh_key: z.string({ error: REQUIRED }).check(z.trim(), z.minLength(1, REQUIRED), z.maxLength(16_000, "That is too long for an SSH public key")),
    // Proof of possession: the code shown (hidden field) and its signature by the key.
    nonce: z.string({ error: "The signing code is missing: reload the page." }).check(z.trim(), z.minLength(1), z.maxLength(200)),
    signature: z.string({ error: REQUIRED }).check(
      z.trim(),
      z.maxLength(16_000, "That is too long for an SSH signature"),
      z.refine((v) => v.includes("-----BEGIN SSH SIGNATURE-----") && v.includes("-----END SSH SIGNATURE-----"), {
        message: "Paste the whole signature, from -----BEGIN SSH SIGNATURE----- to -----END SSH SIGNATURE-----",
      }),
    ),
  }),
);

/**
 * Turning 2FA off asks who it is first (a stolen session alone must not do it): the current
 * password or a current code. Empty fields arrive as undefined (conform).
 */
export const totpDisableSchema = schema(() =>
  z
    .object({
      current_password: z.optional(z.string().check(z.maxLength(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters`))),
      code: z.optional(z.string().check(z.trim(), z.regex(/^\d{6}$/, "Enter the 6-digit code"))),
    })
    .check(z.refine((d) => d.current_password !== undefined || d.code !== undefined, { message: STEP_UP_REQUIRED })),
);

/** Turning 2FA on asks for the current password first (accounts that have one). */
export const totpSetupSchema = schema(() =>
  z.object({
    current_password: z.string({ error: REQUIRED }).check(z.minLength(1, REQUIRED), z.maxLength(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters`)),
  }),
);

export const FACTOR_CODE_RULE = "Enter the 6-digit code or a recovery code";
/** A code field that takes a 6-digit code from the app or a recovery code. */
export const isFactorCode = (v: string) => /^\d{6}$/.test(v) || normalizeRecoveryCode(v) !== null;

/**
 * Turning 2FA off or making new recovery codes: the current password, or one field for a code
 * from the app or a recovery code (the action tells them apart).
 */
export const factorProofSchema = schema(() =>
  z
    .object({
      current_password: z.optional(z.string().check(z.maxLength(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters`))),
      code: z.optional(z.string().check(z.trim(), z.refine(isFactorCode, FACTOR_CODE_RULE))),
    })
    .check(z.refine((d) => d.current_password !== undefined || d.code !== undefined, { message: STEP_UP_REQUIRED })),
);

/** Deleting the SSH key asks the same (delete, then save, would replace it). */
export const sshKeyDeleteSchema = totpDisableSchema;

export const passwordChangeSchema = schema(() =>
  z
    .object({
      current_password: z.string({ error: REQUIRED }).check(z.minLength(1, REQUIRED)),
      new_password: z.string({ error: REQUIRED }).check(z.minLength(PASSWORD_MIN, PASSWORD_SHORT)),
      confirm_password: z.string({ error: REQUIRED }).check(z.minLength(1, REQUIRED)),
    })
    .check(z.refine((d) => d.new_password === d.confirm_password, { path: ["confirm_password"], message: PASSWORDS_DIFFER })),
);

/** A personal API token: a name, a scope and an expiry in days ("none": never). */
export const personalTokenFormSchema = schema(() =>
  z.object({
    name: z
      .string({ error: PERSONAL_TOKEN_TEXTS.name })
      .check(z.trim(), z.minLength(1, PERSONAL_TOKEN_TEXTS.name), z.maxLength(PERSONAL_TOKEN_NAME_MAX, PERSONAL_TOKEN_TEXTS.name)),
    scope: z.enum(PERSONAL_TOKEN_SCOPES, { error: "Choose read or play" }),
    expires_in_days: z.enum(PERSONAL_TOKEN_EXPIRIES, { error: "Choose an expiry" }),
  }),
);
