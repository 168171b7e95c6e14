// The API's JSON shapes for plans and payments (docs/api.md, "Plans and billing"): the user's plan
// with its limits and this month's use, and the payment side (Stripe) when it is enabled.
import type { PlanName } from "../plans.ts";
import type { Difficulty } from "./catalogue.ts";

/** GET /users/me/plan: the plan in force, its limits and this month's use. */
export interface PlanStatus {
  plan: PlanName;
  /** When Pro ends (ISO); null for free, or Pro without an end. */
  plan_until: string | null;
  limits: {
    concurrent_deployments: number;
    /** null: no monthly limit. */
    medium_per_month: number | null;
    difficulties: Difficulty[];
  };
  usage: { medium_started_this_month: number; active_deployments: number };
  /** The start of the next UTC month (ISO), when free's medium allowance comes back. */
  month_resets_at: string;
}

/** GET /billing/config (public): whether payments are enabled on this installation. */
export interface BillingConfigView {
  enabled: boolean;
}

/** GET /billing, POST /billing/cancel: the payment side of the user's plan. */
export interface BillingStatus {
  enabled: boolean;
  subscription: {
    /** The provider's status: active, trialing, past_due, canceled... */
    status: string;
    cancel_at_period_end: boolean;
    /** ISO; null when the provider has not told us yet. */
    current_period_end: string | null;
  } | null;
}

/** POST /billing/checkout: where the browser goes to pay. */
export interface CheckoutStarted {
  url: string;
}
