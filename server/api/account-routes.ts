// The account basics over HTTP (docs/api.md, "Account basics"): forgot password, e-mail
// change, deletion, the data export, unsubscribe links from mail, and resetting a deployment to
// its broken state. Transport only: validate with zod, call one service.
import { z } from "zod";
import { PASSWORD_MAX } from "../../shared/rules.ts";
import type { AccountDeletion } from "../core/accounts/deletion.ts";
import type { EmailChange } from "../core/accounts/email-change.ts";
import type { AccountExporter } from "../core/accounts/export.ts";
import type { Notifications } from "../core/accounts/notifications.ts";
import type { PasswordReset } from "../core/accounts/password-reset.ts";
import type { Deployments } from "../core/deployments/index.ts";
import { type BaseCtx, json, parse, type Router } from "./router.ts";
import { challengeIdParam, password } from "../../shared/contract/inputs.ts";

export interface AccountServices {
  passwordReset: PasswordReset;
  emailChange: EmailChange;
  deletion: AccountDeletion;
  exporter: AccountExporter;
  notifications: Notifications;
}

export interface AccountRoutesDeps extends AccountServices {
  deployments: Pick<Deployments, "reset">;
  userId(c: BaseCtx): Promise<string>;
  /** The user and the sign-in the access token belongs to (the step-up rules ask it). */
  session(c: BaseCtx): Promise<{ userId: string; sid: string | null }>;
}

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

export function accountRoutes(r: Router, { passwordReset, emailChange, deletion, exporter, notifications, deployments, userId, session }: AccountRoutesDeps) {
  // Forgot password (public: the link in the mail is the credential).
  r.post(
    "/auth/password-reset/request",
    {
      summary: "Mail a password-reset link (the same answer whether or not the address has an account)",
      tags: ["Authentication"],
      access: "public",
      body: forgotPasswordBody,
      status: 202,
      errors: { 429: "Too many requests from this address or for this e-mail" },
    },
    async (c) => json(await passwordReset.requestReset((await c.body(forgotPasswordBody)).email, c.info.clientIp), 202),
  );
  r.post(
    "/auth/password-reset/check",
    { summary: "Is a password-reset link still good?", tags: ["Authentication"], access: "public", body: resetCheckBody, returns: "{valid}" },
    async (c) => passwordReset.checkToken((await c.body(resetCheckBody)).token),
  );
  r.post(
    "/auth/password-reset",
    {
      summary: "Set a new password with the mailed link's token; ends every sign-in of the account",
      tags: ["Authentication"],
      access: "public",
      body: resetPasswordBody,
      errors: { 400: "Invalid, used or expired link" },
    },
    async (c) => {
      const b = await c.body(resetPasswordBody);
      return passwordReset.resetPassword(b.token, b.new_password);
    },
  );

  // E-mail change: asked by the signed-in owner, confirmed by the link sent to the new address.
  r.post(
    "/users/me/email",
    {
      summary: "Change the e-mail address: a link goes to the new one (step-up: password, or a code from a factor another sign-in added over 24 hours ago)",
      tags: ["Users"],
      access: "user",
      body: emailChangeBody,
      status: 202,
      errors: { 429: "Too many requests" },
    },
    async (c) => {
      const { userId: id, sid } = await session(c);
      return json(await emailChange.requestEmailChange(id, { ...(await c.body(emailChangeBody)), session: sid }), 202);
    },
  );
  r.post(
    "/users/me/email/confirm",
    {
      summary: "Confirm the new e-mail address with the mailed token",
      tags: ["Users"],
      access: "public",
      body: emailConfirmBody,
      errors: { 400: "Invalid or expired link", 409: "Another account uses the address" },
    },
    async (c) => emailChange.confirmEmailChange((await c.body(emailConfirmBody)).token),
  );

  // Export and deletion.
  r.get(
    "/users/me/export",
    { summary: "Everything personal about the signed-in user, as a JSON download (no secrets)", tags: ["Users"], access: "user" },
    async (c) => {
      const data = await exporter.exportData(await userId(c));
      return json(data, 200, { "content-disposition": `attachment; filename="faultline-${data.profile.username}.json"` });
    },
  );
  r.delete(
    "/users/me",
    {
      summary: "Delete the account and its personal data (password, 2FA code, or the username for accounts with neither)",
      tags: ["Users"],
      access: "user",
      body: deleteAccountBody,
      errors: { 400: "Wrong password, code or username" },
    },
    async (c) => {
      const { userId: id, sid } = await session(c);
      return deletion.deleteAccount(id, { ...(await c.body(deleteAccountBody)), session: sid });
    },
  );

  // Unsubscribe links from notification mails: no sign-in, the signed token says who and what.
  r.get(
    "/notifications/unsubscribe",
    { summary: "What an unsubscribe link turns off", tags: ["Users"], access: "public", query: unsubscribeQuery, errors: { 400: "Invalid link" } },
    async (c) => notifications.describe(c.query(unsubscribeQuery).token),
  );
  // RFC 8058 one-click: mail clients POST "List-Unsubscribe=One-Click" to the header's URI; the
  // body says nothing the token does not, so it is not read.
  r.post(
    "/notifications/unsubscribe",
    {
      summary: "Turn off the notification an unsubscribe link names (RFC 8058 one-click)",
      tags: ["Users"],
      access: "public",
      query: unsubscribeQuery,
      errors: { 400: "Invalid link" },
    },
    async (c) => notifications.unsubscribe(c.query(unsubscribeQuery).token),
  );

  // Reset a deployment to its broken state (same expiry and ssh command).
  r.post(
    "/challenges/:id/session/reset",
    {
      summary: "Reset the deployment: fresh containers, setup again, same expiry and ssh user (at most 3 times)",
      tags: ["Deployments"],
      access: "user",
      params: { id: challengeIdParam },
      status: 202,
      errors: { 404: "No deployment of this challenge", 409: "Only a ready deployment can be reset", 429: "No resets left" },
    },
    async (c) => {
      const id = await userId(c);
      return json(await deployments.reset(id, parse(challengeIdParam, c.params.id)), 202);
    },
  );
}
