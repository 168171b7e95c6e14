// Form schemas of the account basics (forgot password, new password, e-mail change, account
// deletion), with the same rules and messages as registration's (./forms.ts).
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN, STEP_UP_REQUIRED } from "../../shared/rules.ts";
import { INVALID_EMAIL, PASSWORD_SHORT, PASSWORDS_DIFFER, REQUIRED } from "./forms.ts";

const email = z.string({ error: INVALID_EMAIL }).trim().max(254, INVALID_EMAIL).refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), INVALID_EMAIL);

export const forgotPasswordSchema = z.object({ email });

export const newPasswordSchema = z
  .object({
    token: z.string({ error: REQUIRED }).min(1, REQUIRED),
    new_password: z.string({ error: REQUIRED }).min(PASSWORD_MIN, PASSWORD_SHORT).max(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters`),
    confirm_password: z.string({ error: REQUIRED }).min(1, REQUIRED),
  })
  .refine((d) => d.new_password === d.confirm_password, { path: ["confirm_password"], message: PASSWORDS_DIFFER });

const stepUp = {
  current_password: z.string().max(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters`).optional(),
  code: z.string().trim().regex(/^\d{6}$/, "Enter the 6-digit code").optional(),
};

/** Accounts with a password or 2FA confirm with one of them (STEP_UP_REQUIRED otherwise). */
export const emailChangeSchema = z
  .object({ new_email: email, ...stepUp })
  .refine((d) => d.current_password !== undefined || d.code !== undefined, { message: STEP_UP_REQUIRED });
/** An OAuth-only account without 2FA has nothing to confirm with but its session. */
export const emailChangeNoProofSchema = z.object({ new_email: email });

export const deleteAccountSchema = z
  .object({ ...stepUp })
  .refine((d) => d.current_password !== undefined || d.code !== undefined, { message: STEP_UP_REQUIRED });
export const TYPE_USERNAME = "Type your username to confirm the deletion.";
export const deleteAccountByNameSchema = z.object({ username: z.string({ error: TYPE_USERNAME }).trim().min(1, TYPE_USERNAME) });

export const ACCOUNT_TEXTS = {
  deleteWarning:
    "Deleting your account removes your profile, settings, SSH key, submissions, solves (your entry leaves the leaderboard), achievements and shell recordings, and ends your running deployments. It cannot be undone.",
  deleted: "Your account and its personal data were deleted.",
} as const;
