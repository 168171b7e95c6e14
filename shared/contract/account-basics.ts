// The API's JSON shapes for the account basics: password reset, e-mail change,
// account deletion, the data export, unsubscribe links and a deployment's reset. docs/api.md
// ("Account basics") describes the same answers in prose. A leaf: imports only its siblings.
import { z } from "zod";
import { PASSWORD_MAX } from "#shared/rules.ts";
import { messageSchema, ownUserSchema } from "./accounts.ts";
import { challengeIdParam, password } from "./inputs.ts";
import { defineOperations } from "./operation.ts";

/** POST /auth/password-reset/check. */
export const passwordResetCheckSchema = z.object({ valid: z.boolean() });
export type PasswordResetCheck = z.infer<typeof passwordResetCheckSchema>;

/** POST /users/me/email/confirm. */
export const emailChangedSchema = messageSchema.extend({ user: ownUserSchema });
export type EmailChanged = z.infer<typeof emailChangedSchema>;

/** GET /notifications/unsubscribe?token=: what the link turns off. */
export const unsubscribeInfoSchema = z.object({
  setting: z.enum(["solution_feedback", "new_challenges"]),
  label: z.string(),
  subscribed: z.boolean(),
});
export type UnsubscribeInfo = z.infer<typeof unsubscribeInfoSchema>;

/** POST /challenges/{id}/session/reset (202: the new containers come in the background). */
export const deploymentResetResultSchema = messageSchema.extend({ deployment_id: z.string(), expires_at: z.string(), resets_left: z.number() });
export type DeploymentResetResult = z.infer<typeof deploymentResetResultSchema>;

const nullableNumber = z.number().nullable();
const nullableString = z.string().nullable();

/** GET /users/me/export: everything personal the platform holds about the caller (no secrets). */
export const accountExportSchema = z.object({
  format: z.literal("faultline-account-export"),
  version: z.literal(2),
  exported_at: z.string(),
  profile: z.object({
    id: z.string(),
    username: z.string(),
    email: z.string(),
    display_name: nullableString,
    bio: nullableString,
    location: nullableString,
    github_username: nullableString,
    oauth_provider: nullableString,
    is_verified: z.boolean(),
    is_admin: z.boolean(),
    theme: z.string(),
    plan: z.string(),
    plan_until: nullableNumber,
    two_factor_enabled: z.boolean(),
    has_password: z.boolean(),
    created_at: z.number(),
    updated_at: z.number(),
  }),
  settings: z.object({
    notifications: z.object({ newChallenges: z.boolean(), solutionFeedback: z.boolean(), leaderboardUpdates: z.boolean(), marketingEmails: z.boolean() }),
  }),
  ssh_keys: z.array(z.object({ fingerprint: z.string() })),
  connected_accounts: z.array(z.object({ provider: z.string(), login: nullableString, email: nullableString, linked_at: z.number() })),
  deployments: z.array(
    z.object({ id: z.string(), challenge_id: z.string(), status: z.string(), created_at: z.number(), ended_at: nullableNumber, expires_at: z.number() }),
  ),
  submissions: z.array(
    z.object({
      id: z.string(),
      challenge_id: z.string(),
      deployment_id: z.string(),
      solution: z.string(),
      is_correct: z.boolean(),
      feedback: z.string(),
      created_at: z.number(),
    }),
  ),
  solves: z.array(z.object({ challenge_id: z.string(), points: z.number(), solve_seconds: z.number(), solved_at: z.number() })),
  achievements: z.array(z.object({ id: z.string(), title: z.string(), unlocked: z.boolean() })),
  recordings: z.array(
    z.object({
      id: z.string(),
      challenge_id: z.string(),
      source: z.string(),
      started_at: z.number(),
      ended_at: nullableNumber,
      bytes: z.number(),
      published: z.boolean(),
    }),
  ),
  /** What they did and what was done to their account; `target_id` with `target_type` "user" is them. */
  audit_entries: z.array(
    z.object({
      at: z.number(),
      action: z.string(),
      target_type: nullableString,
      target_id: nullableString,
      ip: nullableString,
      detail: z.record(z.string(), z.unknown()).nullable(),
    }),
  ),
});
export type AccountExport = z.infer<typeof accountExportSchema>;

const email = z.email({ error: "must be a valid e-mail address" }).trim().max(254, "must be at most 254 characters");
const token = z.string({ error: "is required" }).trim().min(1, "is required").max(300, "is too long");
const stepUp = {
  current_password: z.string({ error: "must be a string" }).min(1, "is required").max(PASSWORD_MAX).optional(),
  code: z
    .string({ error: "must be a string" })
    .trim()
    .regex(/^\d{6}$/, "must be 6 digits")
    .optional(),
};

export const forgotPasswordBody = z.object({ email });
export const resetCheckBody = z.object({ token });
export const resetPasswordBody = z.object({ token, new_password: password });
export const emailChangeBody = z.object({ new_email: email, ...stepUp });
export const emailConfirmBody = z.object({ token });
export const deleteAccountBody = z.object({ ...stepUp, username: z.string({ error: "must be a string" }).trim().max(100).optional() });
export const unsubscribeQuery = z.object({ token });

export const accountBasicsOperations = defineOperations({
  requestPasswordReset: {
    method: "POST",
    path: "/auth/password-reset/request",
    summary: "Mail a password-reset link (the same answer whether or not the address has an account)",
    tags: ["Authentication"],
    access: "public",
    body: forgotPasswordBody,
    status: 202,
    errors: { 429: "Too many requests from this address or for this e-mail" },
    response: messageSchema,
  },
  checkPasswordReset: {
    method: "POST",
    path: "/auth/password-reset/check",
    summary: "Is a password-reset link still good?",
    tags: ["Authentication"],
    access: "public",
    body: resetCheckBody,
    returns: "{valid}",
    response: passwordResetCheckSchema,
  },
  resetPassword: {
    method: "POST",
    path: "/auth/password-reset",
    summary: "Set a new password with the mailed link's token; ends every sign-in of the account",
    tags: ["Authentication"],
    access: "public",
    body: resetPasswordBody,
    errors: { 400: "Invalid, used or expired link" },
    response: messageSchema,
  },
  requestEmailChange: {
    method: "POST",
    path: "/users/me/email",
    summary: "Change the e-mail address: a link goes to the new one (step-up: password, or a code from a factor another sign-in added over 24 hours ago)",
    tags: ["Users"],
    access: "user",
    body: emailChangeBody,
    status: 202,
    errors: { 429: "Too many requests" },
    response: messageSchema,
  },
  confirmEmailChange: {
    method: "POST",
    path: "/users/me/email/confirm",
    summary: "Confirm the new e-mail address with the mailed token",
    tags: ["Users"],
    access: "public",
    body: emailConfirmBody,
    errors: { 400: "Invalid or expired link", 409: "Another account uses the address" },
    response: emailChangedSchema,
  },
  exportAccount: {
    method: "GET",
    path: "/users/me/export",
    summary: "Everything personal about the signed-in user, as a JSON download (no secrets)",
    tags: ["Users"],
    access: "user",
    response: accountExportSchema,
  },
  deleteAccount: {
    method: "DELETE",
    path: "/users/me",
    summary: "Delete the account and its personal data (password, 2FA code, or the username for accounts with neither)",
    tags: ["Users"],
    access: "user",
    body: deleteAccountBody,
    errors: { 400: "Wrong password, code or username" },
    response: messageSchema,
  },
  describeUnsubscribe: {
    method: "GET",
    path: "/notifications/unsubscribe",
    summary: "What an unsubscribe link turns off",
    tags: ["Users"],
    access: "public",
    query: unsubscribeQuery,
    errors: { 400: "Invalid link" },
    response: unsubscribeInfoSchema,
  },
  unsubscribe: {
    method: "POST",
    path: "/notifications/unsubscribe",
    summary: "Turn off the notification an unsubscribe link names (RFC 8058 one-click)",
    tags: ["Users"],
    access: "public",
    query: unsubscribeQuery,
    errors: { 400: "Invalid link" },
    response: messageSchema.extend({ setting: unsubscribeInfoSchema.shape.setting }),
  },
  resetDeployment: {
    method: "POST",
    path: "/challenges/:id/session/reset",
    summary: "Reset the deployment: fresh containers, setup again, same expiry and ssh user (at most 3 times)",
    tags: ["Deployments"],
    access: "user",
    personalToken: "play",
    params: z.object({ id: challengeIdParam }),
    status: 202,
    errors: { 404: "No deployment of this challenge", 409: "Only a ready deployment can be reset", 429: "No resets left" },
    response: deploymentResetResultSchema,
  },
});
