// zod schemas for the API's inputs that several operations share (ids, passwords, codes, the query
// string's blank handling and paging). Messages here are what a caller sees in `detail`.
import { z } from "zod";
import {
  BIO_MAX,
  CHALLENGE_ID_PATTERN,
  DISPLAY_NAME_MAX,
  LOCATIONS,
  PASSWORD_MAX,
  PASSWORD_MIN,
  SOLUTION_MAX,
  STEP_UP_REQUIRED,
  USERNAME_PATTERN,
  USERNAME_RULE,
} from "#shared/rules.ts";
import { normalizeRecoveryCode } from "#shared/recovery-codes.ts";

export const password = z
  .string({ error: "is required" })
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);

export const registerBody = z.object({
  username: z.string({ error: "is required" }).trim().regex(USERNAME_PATTERN, USERNAME_RULE),
  email: z.email({ error: "must be a valid e-mail address" }).trim().max(254),
  password,
});

export const loginBody = z.object({
  username_or_email: z.string({ error: "is required" }).trim().min(1, "is required").max(254),
  password: z.string({ error: "is required" }).min(1, "is required").max(PASSWORD_MAX),
});

/** A recovery code as printed (shared/recovery-codes.ts: any case, dashes optional). */
export const recoveryCode = z
  .string({ error: "must be a string" })
  .trim()
  .max(64, "is too long")
  .refine((v) => normalizeRecoveryCode(v) !== null, "must be a recovery code: 16 letters and digits, as printed");

/** The second step of a sign-in: a code from the authenticator, or one of the recovery codes. */
export const secondFactorBody = z
  .object({
    mfa_token: z.string({ error: "is required" }).min(1),
    code: z
      .string({ error: "is required" })
      .trim()
      .regex(/^\d{6}$/, "must be 6 digits")
      .optional(),
    recovery_code: recoveryCode.optional(),
  })
  .refine((b) => b.code !== undefined || b.recovery_code !== undefined, { path: ["code"], message: "is required (or a recovery_code)" });

/** A link's token (lost authenticator). */
export const totpRemovalRequestBody = z.object({ mfa_token: z.string({ error: "is required" }).min(1, "is required").max(300, "is too long") });

export const refreshBody = z.object({ refresh_token: z.string({ error: "is required" }).min(1) });
export const logoutBody = z.object({ refresh_token: z.string().optional() });
export const tokenBody = z.object({ token: z.string({ error: "is required" }).min(1).max(200) });
export const resendBody = z.object({ email: z.email().optional() });

export const oauthCallbackBody = z.object({
  code: z.string({ error: "Missing authorization code or state parameter" }).min(1, "Missing authorization code or state parameter"),
  state: z.string({ error: "Missing authorization code or state parameter" }).min(1, "Missing authorization code or state parameter"),
});

/** Starting 2FA set-up: the current password when the account has one (decision 017). */
export const totpSetupBody = z.object({
  current_password: z.string({ error: "must be a string" }).min(1, "is required").max(PASSWORD_MAX).optional(),
});

export const totpVerifyBody = z.object({
  token: z
    .string({ error: "is required" })
    .trim()
    .regex(/^\d{6}$/, "must be 6 digits"),
  secret: z.string({ error: "is required" }).min(16).max(64),
});

export const sshKeyBody = z.object({
  ssh_public_key_b64: z
    .string({ error: "is required" })
    .min(1, "is required")
    .max(16_384, "is too long")
    .transform((v, ctx) => {
      // The web sends the key base64-encoded (spec); a raw `ssh-...` line is accepted too.
      // A private key goes on to the key check, whose message says what it is.
      const t = v.trim();
      if (t.startsWith("ssh-") || t.startsWith("ecdsa-") || t.includes("PRIVATE KEY")) return t;
      const decoded = Buffer.from(t, "base64").toString("utf8");
      if (!/^(ssh-|ecdsa-)/.test(decoded.trim()) && !decoded.includes("PRIVATE KEY")) {
        ctx.addIssue({ code: "custom", message: "must be a base64-encoded OpenSSH public key" });
        return z.NEVER;
      }
      return decoded;
    }),
  // Proof of possession (POST /users/me/ssh-key/nonce, then ssh-keygen -Y sign -n faultline).
  nonce: z.string({ error: "is required: get one from POST /users/me/ssh-key/nonce" }).trim().min(1, "is required").max(200, "is too long"),
  signature: z
    .string({ error: "is required: the output of ssh-keygen -Y sign -n faultline over the nonce" })
    .min(1, "is required")
    .max(16_384, "is too long")
    .refine((v) => v.includes("-----BEGIN SSH SIGNATURE-----"), "must be the armored block from -----BEGIN SSH SIGNATURE----- to -----END SSH SIGNATURE-----"),
  // Step-up, needed to replace a key (one of the two).
  current_password: z.string({ error: "must be a string" }).min(1, "is required").max(PASSWORD_MAX).optional(),
  code: z
    .string({ error: "must be a string" })
    .trim()
    .regex(/^\d{6}$/, "must be 6 digits")
    .optional(),
});

/** Removing the SSH key: the step-up (password or code) when the account has either. */
export const sshKeyDeleteBody = z.object({
  current_password: z.string({ error: "must be a string" }).min(1, "is required").max(PASSWORD_MAX).optional(),
  code: z
    .string({ error: "must be a string" })
    .trim()
    .regex(/^\d{6}$/, "must be 6 digits")
    .optional(),
});

const nullableText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullable()
    .optional()
    .transform((v) => (v === "" ? null : v));

export const profileBody = z.object({
  display_name: nullableText(DISPLAY_NAME_MAX),
  bio: nullableText(BIO_MAX),
  location: z
    .union([z.enum(LOCATIONS), z.literal("")])
    .nullable()
    .optional()
    .transform((v) => (v === "" ? null : v)),
  theme: z.enum(["dark", "light"]).optional(),
});

/** Step-up before turning 2FA off or making new recovery codes: the current password, a current
 *  code or a recovery code (one is enough). */
export const totpDisableBody = z
  .object({
    current_password: z.string({ error: "must be a string" }).min(1, "is required").max(PASSWORD_MAX).optional(),
    code: z
      .string({ error: "must be a string" })
      .trim()
      .regex(/^\d{6}$/, "must be 6 digits")
      .optional(),
    recovery_code: recoveryCode.optional(),
  })
  .refine((b) => b.current_password !== undefined || b.code !== undefined || b.recovery_code !== undefined, { message: STEP_UP_REQUIRED });

export const passwordChangeBody = z.object({
  current_password: z.string({ error: "is required" }).min(1, "is required"),
  new_password: password,
});

export const notificationsBody = z.object({
  newChallenges: z.boolean().optional(),
  solutionFeedback: z.boolean().optional(),
  leaderboardUpdates: z.boolean().optional(),
  marketingEmails: z.boolean().optional(),
});

export const providerParam = z.enum(["github", "google"], { error: "Unknown OAuth provider" });

// Query strings, one rule for every route: a value that is empty or only spaces (a GET form's
// blank field) means "not given"; numbers are whole and bounded; words are matched without case.
export const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
export const wholeNumber = (min: number, max: number) =>
  z.preprocess(
    blank,
    z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`)
      .optional(),
  );
export const queryText = (max: number) => z.preprocess(blank, z.string().trim().max(max, `must be at most ${max} characters`).optional());
export const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === "string" ? blank(v.trim().toLowerCase()) : v), z.enum(values, { error: `must be one of ${values.join(", ")}` }).optional());

// Challenges and deployments
export const challengeIdParam = z.string().regex(CHALLENGE_ID_PATTERN, "is not a challenge id");
export const deploymentIdParam = z.uuid({ error: "not a deployment id" });
export const submitBody = z.object({
  solution: z.string({ error: "is required" }).trim().min(1, "is required").max(SOLUTION_MAX, `must be at most ${SOLUTION_MAX} characters`),
  deployment_uid: z.string().max(100).nullish(),
});
