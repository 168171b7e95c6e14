// The account basics over HTTP (docs/api.md, "Account basics"): forgot password, e-mail
// change, deletion, the data export, unsubscribe links from mail, and resetting a deployment to
// its broken state. Transport only: call one service (the operations: shared/contract/account-basics.ts).
import { operations } from "#shared/contract/operations.ts";
import type { AccountDeletion } from "#server/core/accounts/deletion.ts";
import type { EmailChange } from "#server/core/accounts/email-change.ts";
import type { AccountExporter } from "#server/core/accounts/export.ts";
import type { Notifications } from "#server/core/accounts/notifications.ts";
import type { PasswordReset } from "#server/core/accounts/password-reset.ts";
import type { Deployments } from "#server/core/deployments/index.ts";
import type { BaseCtx, Router } from "./router.ts";

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

export function accountRoutes(r: Router, { passwordReset, emailChange, deletion, exporter, notifications, deployments, userId, session }: AccountRoutesDeps) {
  // Forgot password (public: the link in the mail is the credential).
  r.handle(operations.requestPasswordReset, async (c) => passwordReset.requestReset(c.body.email, c.info.clientIp));
  r.handle(operations.checkPasswordReset, async (c) => passwordReset.checkToken(c.body.token));
  r.handle(operations.resetPassword, async (c) => passwordReset.resetPassword(c.body.token, c.body.new_password));

  // E-mail change: asked by the signed-in owner, confirmed by the link sent to the new address.
  r.handle(operations.requestEmailChange, async (c) => {
    const { userId: id, sid } = await session(c);
    return emailChange.requestEmailChange(id, { ...c.body, session: sid });
  });
  r.handle(operations.confirmEmailChange, async (c) => emailChange.confirmEmailChange(c.body.token));

  // Export and deletion.
  r.handle(operations.exportAccount, async (c) => {
    const data = await exporter.exportData(await userId(c));
    return c.reply(data, { headers: { "content-disposition": `attachment; filename="faultline-${data.profile.username}.json"` } });
  });
  r.handle(operations.deleteAccount, async (c) => {
    const { userId: id, sid } = await session(c);
    return deletion.deleteAccount(id, { ...c.body, session: sid });
  });

  // Unsubscribe links from notification mails: no sign-in, the signed token says who and what.
  r.handle(operations.describeUnsubscribe, async (c) => notifications.describe(c.query.token));
  // RFC 8058 one-click: mail clients POST "List-Unsubscribe=One-Click" to the header's URI; the
  // body says nothing the token does not, so it is not read.
  r.handle(operations.unsubscribe, async (c) => notifications.unsubscribe(c.query.token));

  // Reset a deployment to its broken state (same expiry and ssh command).
  r.handle(operations.resetDeployment, async (c) => deployments.reset(await userId(c), c.params.id));
}
