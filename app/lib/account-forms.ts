// Form schemas of the account basics (forgot password, new password, e-mail change, account
// deletion), with the same rules and messages as registration's (./forms.ts), in zod/mini and
// each built inside `schema()` for the same reasons as there.
import * as z from "zod/mini";
import { PASSWORD_MAX, PASSWORD_MIN, STEP_UP_REQUIRED } from "#shared/rules.ts";
import { INVALID_EMAIL, PASSWORD_SHORT, PASSWORDS_DIFFER, REQUIRED, schema } from "./forms.ts";

const email = () =>
  z.string({ error: INVALID_EMAIL }).check(
    z.trim(),
    z.maxLength(254, INVALID_EMAIL),
    z.refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), INVALID_EMAIL),
  );

export const forgotPasswordSchema = schema(() => z.object({ email: email() }));

export const newPasswordSchema = schema(() =>
  z
    .object({
      token: z.string({ error: REQUIRED }).check(z.minLength(1, REQUIRED)),
      new_password: z
        .string({ error: REQUIRED })
        .check(z.minLength(PASSWORD_MIN, PASSWORD_SHORT), z.maxLength(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters`)),
      confirm_password: z.string({ error: REQUIRED }).check(z.minLength(1, REQUIRED)),
    })
    .check(z.refine((d) => d.new_password === d.confirm_password, { path: ["confirm_password"], message: PASSWORDS_DIFFER })),
);

const stepUp = () => ({
  current_password: z.optional(z.string().check(z.maxLength(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters`))),
  code: z.optional(z.string().check(z.trim(), z.regex(/^\d{6}$/, "Enter the 6-digit code"))),
});
const proved = (d: { current_password?: string; code?: string }) => d.current_password !== undefined || d.code !== undefined;

/** Accounts with a password or 2FA confirm with one of them (STEP_UP_REQUIRED otherwise). */
export const emailChangeSchema = schema(() => z.object({ new_email: email(), ...stepUp() }).check(z.refine(proved, { message: STEP_UP_REQUIRED })));
/** An OAuth-only account without 2FA has nothing to confirm with but its session. */
export const emailChangeNoProofSchema = schema(() => z.object({ new_email: email() }));

export const deleteAccountSchema = schema(() => z.object(stepUp()).check(z.refine(proved, { message: STEP_UP_REQUIRED })));
export const TYPE_USERNAME = "Type your username to confirm the deletion.";
export const deleteAccountByNameSchema = schema(() =>
  z.object({ username: z.string({ error: TYPE_USERNAME }).check(z.trim(), z.minLength(1, TYPE_USERNAME)) }),
);

export const ACCOUNT_TEXTS = {
  deleteWarning:
    "Deleting your account removes your profile, settings, SSH key, submissions, solves (your entry leaves the leaderboard), achievements and shell recordings, and ends your running deployments. It cannot be undone.",
  deleted: "Your account and its personal data were deleted.",
} as const;
