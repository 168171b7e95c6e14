// Plans and payments over HTTP: the user's plan and this month's use, Stripe Checkout, cancelling
// at the end of the paid period, and the provider's webhook (read raw: its signature covers the
// exact bytes). Transport only: the rules are in server/core/plans.ts and server/core/billing.ts.
// Admins set a user's plan through the admin console's audited route (admin-routes.ts).
import { z } from "zod";
import { readBodyText } from "../body-limit.ts";
import type { Billing } from "../core/billing.ts";
import type { Plans } from "../core/plans.ts";
import { type BaseCtx, type Router } from "./router.ts";

export interface BillingRouteDeps {
  plans: Plans;
  billing: Billing;
  userId: (c: BaseCtx) => Promise<string>;
}

export const cancelBody = z.object({
  cancel_at_period_end: z.boolean({ error: "must be true or false" }),
});

export function billingRoutes(r: Router, { plans, billing, userId }: BillingRouteDeps) {
  r.get("/users/me/plan", { summary: "The user's plan and this month's use", tags: ["Billing"], access: "user" }, async (c) => plans.status(await userId(c)));

  r.get("/billing/config", { summary: "Whether payments are enabled", tags: ["Billing"], access: "public" }, async () => ({ enabled: billing.enabled }));
  r.get("/billing", { summary: "Plan, period end and cancellation state", tags: ["Billing"], access: "user" }, async (c) => billing.status(await userId(c)));
  r.post(
    "/billing/checkout",
    {
      summary: "Start a Stripe Checkout for Pro",
      tags: ["Billing"],
      access: "user",
      errors: { 409: "Already Pro", 502: "The payment provider did not answer", 503: "Payments are not enabled" },
    },
    async (c) => billing.checkout(await userId(c)),
  );
  r.post(
    "/billing/cancel",
    {
      summary: "Cancel at the end of the paid period, or keep Pro",
      tags: ["Billing"],
      access: "user",
      body: cancelBody,
      errors: { 409: "No subscription to change", 503: "Payments are not enabled" },
    },
    async (c) => {
      const id = await userId(c);
      return billing.setCancelAtPeriodEnd(id, (await c.body(cancelBody)).cancel_at_period_end);
    },
  );
  r.post(
    "/billing/webhook",
    {
      summary: "The payment provider's webhook (signature over the raw body)",
      tags: ["Billing"],
      access: "public",
      rawBody: { contentType: "application/json", description: "The provider's event, exactly as signed (Stripe-Signature header)" },
      errors: { 400: "Missing or invalid signature, or not an event", 503: "Payments are not enabled" },
    },
    async (c) => billing.webhook(await readBodyText(c.request), c.request.headers.get("stripe-signature")),
  );
}
