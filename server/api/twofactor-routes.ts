// Two-factor authentication over HTTP (docs/api.md, "Two-factor authentication"; decision 017):
// set-up behind the password, enabling (recovery codes shown once), its state, new recovery
// codes, turning it off, and the lost-authenticator link (shared/contract/twofactor.ts). Transport
// only: call one service. The sign-in's second step is POST /auth/login/2fa (index.ts).
import { operations } from "#shared/contract/operations.ts";
import type { Accounts } from "#server/core/accounts/index.ts";
import type { BaseCtx, Router } from "./router.ts";

export interface TwoFactorRoutesDeps {
  accounts: Pick<Accounts, "setupTotp" | "enableTotp" | "disableTotp" | "totpStatus" | "newRecoveryCodes" | "requestTotpRemoval" | "confirmTotpRemoval">;
  /** The signed-in user and the sign-in (refresh family) the access token belongs to. */
  session(c: BaseCtx): Promise<{ userId: string; sid: string | null }>;
}

export function twoFactorRoutes(r: Router, { accounts, session }: TwoFactorRoutesDeps) {
  r.handle(operations.getTwoFactor, async (c) => {
    const s = await session(c);
    return accounts.totpStatus(s.userId, s.sid);
  });
  r.handle(operations.setupTwoFactor, async (c) => accounts.setupTotp((await session(c)).userId, c.body));
  r.handle(operations.enableTwoFactor, async (c) => {
    const s = await session(c);
    return accounts.enableTotp(s.userId, { ...c.body, session: s.sid });
  });
  r.handle(operations.renewRecoveryCodes, async (c) => accounts.newRecoveryCodes((await session(c)).userId, c.body));
  r.handle(operations.disableTwoFactor, async (c) => accounts.disableTotp((await session(c)).userId, c.body));
  // Lost authenticator: asked for at the second step of a sign-in, confirmed by the mailed link.
  r.handle(operations.requestTwoFactorRemoval, async (c) => accounts.requestTotpRemoval(c.body.mfa_token));
  r.handle(operations.confirmTwoFactorRemoval, async (c) => accounts.confirmTotpRemoval(c.body.token));
}
