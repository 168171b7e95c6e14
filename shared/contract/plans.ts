// The API's JSON shapes for plans and payments (docs/api.md, "Plans and billing"): the user's plan
// with its limits and this month's use, and the payment side (Stripe) when it is enabled.
import { z } from "zod";
import { PLAN_NAMES } from "#shared/plans.ts";
import { DIFFICULTIES } from "./catalogue.ts";
import { defineOperations } from "./operation.ts";

/** GET /users/me/plan: the plan in force, its limits and this month's use. */
export const planStatusSchema = z.object({
  plan: z.enum(PLAN_NAMES),
  /** When Pro ends (ISO); null for free, or Pro without an end. */
  plan_until: z.string().nullable(),
  limits: z.object({
    concurrent_deployments: z.number(),
    /** null: no monthly limit. */
    medium_per_month: z.number().nullable(),
    difficulties: z.array(z.enum(DIFFICULTIES)),
  }),
  usage: z.object({ medium_started_this_month: z.number(), active_deployments: z.number() }),
  /** The start of the next UTC month (ISO), when free's medium allowance comes back. */
  month_resets_at: z.string(),
});
export type PlanStatus = z.infer<typeof planStatusSchema>;

/** GET /billing/config (public): whether payments are enabled on this installation. */
export const billingConfigSchema = z.object({ enabled: z.boolean() });
export type BillingConfigView = z.infer<typeof billingConfigSchema>;

/** GET /billing, POST /billing/cancel: the payment side of the user's plan. */
export const billingStatusSchema = z.object({
  enabled: z.boolean(),
  subscription: z
    .object({
      /** The provider's status: active, trialing, past_due, canceled... */
      status: z.string(),
      cancel_at_period_end: z.boolean(),
      /** ISO; null when the provider has not told us yet. */
      current_period_end: z.string().nullable(),
    })
    .nullable(),
});
export type BillingStatus = z.infer<typeof billingStatusSchema>;

/** POST /billing/checkout: where the browser goes to pay. */
export const checkoutStartedSchema = z.object({ url: z.string() });
export type CheckoutStarted = z.infer<typeof checkoutStartedSchema>;

export const cancelBody = z.object({
  cancel_at_period_end: z.boolean({ error: "must be true or false" }),
});

export const billingOperations = defineOperations({
  getPlan: {
    method: "GET",
    path: "/users/me/plan",
    summary: "The user's plan and this month's use",
    tags: ["Billing"],
    access: "user",
    response: planStatusSchema,
  },
  getBillingConfig: {
    method: "GET",
    path: "/billing/config",
    summary: "Whether payments are enabled",
    tags: ["Billing"],
    access: "public",
    response: billingConfigSchema,
  },
  getBilling: {
    method: "GET",
    path: "/billing",
    summary: "Plan, period end and cancellation state",
    tags: ["Billing"],
    access: "user",
    response: billingStatusSchema,
  },
  startCheckout: {
    method: "POST",
    path: "/billing/checkout",
    summary: "Start a Stripe Checkout for Pro",
    tags: ["Billing"],
    access: "user",
    errors: { 409: "Already Pro", 502: "The payment provider did not answer", 503: "Payments are not enabled" },
    response: checkoutStartedSchema,
  },
  setCancelAtPeriodEnd: {
    method: "POST",
    path: "/billing/cancel",
    summary: "Cancel at the end of the paid period, or keep Pro",
    tags: ["Billing"],
    access: "user",
    body: cancelBody,
    errors: { 409: "No subscription to change", 503: "Payments are not enabled" },
    response: billingStatusSchema,
  },
  receiveBillingWebhook: {
    method: "POST",
    path: "/billing/webhook",
    summary: "The payment provider's webhook (signature over the raw body)",
    tags: ["Billing"],
    access: "public",
    rawBody: { contentType: "application/json", description: "The provider's event, exactly as signed (Stripe-Signature header)" },
    errors: { 400: "Missing or invalid signature, or not an event", 503: "Payments are not enabled" },
    response: z.object({ received: z.literal(true), duplicate: z.literal(true).optional() }),
  },
});
