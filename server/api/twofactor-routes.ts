// Two-factor authentication over HTTP (docs/api.md, "Two-factor authentication"; decision 017):
// set-up behind the password, enabling (recovery codes shown once), its state, new recovery
// codes, turning it off, and the lost-authenticator link. Transport only: validate with zod,
// call one service. The sign-in's second step is POST /auth/login/2fa (index.ts).
import { z } from "zod";
import type { Accounts } from "../core/accounts/index.ts";
import { type BaseCtx, json, type Router } from "./router.ts";
import { totpDisableBody, totpRemovalRequestBody, totpSetupBody, totpVerifyBody } from "../../shared/contract/inputs.ts";

export interface TwoFactorRoutesDeps {
  accounts: Pick<Accounts, "setupTotp" | "enableTotp" | "disableTotp" | "totpStatus" | "newRecoveryCodes" | "requestTotpRemoval" | "confirmTotpRemoval">;
  /** The signed-in user and the sign-in (refresh family) the access token belongs to. */
  session(c: BaseCtx): Promise<{ userId: string; sid: string | null }>;
}

export const totpRemovalConfirmBody = z.object({ token: z.string({ error: "is required" }).trim().min(1, "is required").max(300, "is too long") });

export function twoFactorRoutes(r: Router, { accounts, session }: TwoFactorRoutesDeps) {
  const tags: [string] = ["Two-factor"];
  r.get(
    "/auth/2fa",
    {
      summary: "The account's second factor: on or off, since when, recovery codes left, a pending removal",
      tags,
      access: "user",
      returns: "{enabled, enabled_at, step_up_from, enrolled_in_this_sign_in, recovery_codes_left, removal_at} (epoch seconds)",
    },
    async (c) => {
      const s = await session(c);
      return accounts.totpStatus(s.userId, s.sid);
    },
  );
  r.post(
    "/auth/2fa/setup",
    {
      summary: "Start enabling two-factor: a new TOTP secret and its otpauth URL (the current password first, when the account has one)",
      tags,
      access: "user",
      body: totpSetupBody,
      errors: { 400: "Current password missing or incorrect", 409: "Already enabled", 429: "Too many password attempts" },
    },
    async (c) => {
      const { userId } = await session(c);
      return accounts.setupTotp(userId, await c.body(totpSetupBody));
    },
  );
  r.post(
    "/auth/2fa/verify",
    {
      summary: "Enable two-factor with a first code; answers the 10 recovery codes, shown this once",
      tags,
      access: "user",
      body: totpVerifyBody,
      returns: "{message, enabled: true, recovery_codes}",
      errors: { 400: "Wrong code, or not the secret issued", 409: "Already enabled" },
    },
    async (c) => {
      const s = await session(c);
      return accounts.enableTotp(s.userId, { ...(await c.body(totpVerifyBody)), session: s.sid });
    },
  );
  r.post(
    "/auth/2fa/recovery-codes",
    {
      summary: "Make new recovery codes, the old ones stop working (step-up: password, code or recovery code)",
      tags,
      access: "user",
      body: totpDisableBody,
      returns: "{message, recovery_codes}",
      errors: { 400: "Wrong password or code", 409: "Two-factor is not enabled" },
    },
    async (c) => {
      const { userId } = await session(c);
      return accounts.newRecoveryCodes(userId, await c.body(totpDisableBody));
    },
  );
  r.post(
    "/auth/2fa/disable",
    {
      summary: "Turn two-factor off (step-up: password, code or recovery code)",
      tags,
      access: "user",
      body: totpDisableBody,
      errors: { 400: "Wrong password or code", 409: "Two-factor is not enabled" },
    },
    async (c) => {
      const { userId } = await session(c);
      return accounts.disableTotp(userId, await c.body(totpDisableBody));
    },
  );
  // Lost authenticator: asked for at the second step of a sign-in, confirmed by the mailed link.
  r.post(
    "/auth/2fa/removal",
    {
      summary: "Lost authenticator: mail a link to the verified address (with the sign-in's mfa_token; the same answer either way)",
      tags,
      access: "public",
      body: totpRemovalRequestBody,
      status: 202,
      errors: { 401: "Expired sign-in attempt", 429: "Too many links asked for" },
    },
    async (c) => json(await accounts.requestTotpRemoval((await c.body(totpRemovalRequestBody)).mfa_token), 202),
  );
  r.post(
    "/auth/2fa/removal/confirm",
    {
      summary: "Lost authenticator: the mailed link's token schedules two-factor off in 3 days (a sign-in with a code cancels it)",
      tags,
      access: "public",
      body: totpRemovalConfirmBody,
      returns: "{message, removal_at}",
      errors: { 400: "Invalid, used or expired link" },
    },
    async (c) => accounts.confirmTotpRemoval((await c.body(totpRemovalConfirmBody)).token),
  );
}
