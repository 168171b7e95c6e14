// Plans and payments over HTTP: the user's plan and this month's use, Stripe Checkout, cancelling
// at the end of the paid period, and the provider's webhook (read raw: its signature covers the
// exact bytes). Transport only: the rules are in server/core/plans.ts and server/core/billing.ts.
// Admins set a user's plan through the admin console's audited route (admin-routes.ts).
import { operations } from "#shared/contract/operations.ts";
import { readBodyText } from "#server/http/body-limit.ts";
import type { Billing } from "#server/core/billing.ts";
import type { Plans } from "#server/core/plans.ts";
import type { BaseCtx, Router } from "./router.ts";

export interface BillingRouteDeps {
  plans: Plans;
  billing: Billing;
  userId: (c: BaseCtx) => Promise<string>;
}

export function billingRoutes(r: Router, { plans, billing, userId }: BillingRouteDeps) {
  r.handle(operations.getPlan, async (c) => plans.status(await userId(c)));
  r.handle(operations.getBillingConfig, async () => ({ enabled: billing.enabled }));
  r.handle(operations.getBilling, async (c) => billing.status(await userId(c)));
  r.handle(operations.startCheckout, async (c) => billing.checkout(await userId(c)));
  r.handle(operations.setCancelAtPeriodEnd, async (c) => billing.setCancelAtPeriodEnd(await userId(c), c.body.cancel_at_period_end));
  r.handle(operations.receiveBillingWebhook, async (c) => billing.webhook(await readBodyText(c.request), c.request.headers.get("stripe-signature")));
}
