// Real upgrades through Stripe, when it is configured (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET,
// STRIPE_PRICE_ID): a Checkout Session for the Pro subscription, cancelling (or keeping) it at
// the end of the paid period, and the webhook that is the only thing that switches a plan.
// The webhook is verified on the raw body with the library's own constructEvent, is idempotent on
// the event id (billing_events; the provider retries deliveries), and applies a subscription's
// state only if no newer event was applied before it (deliveries can arrive out of order).
// Pro runs to the end of the paid period: a cancelled subscription keeps it until then
// (plans.extendPro never shortens).
import Stripe from "stripe";
import type { Db } from "../db/index.ts";
import { nowSeconds } from "../db/index.ts";
import type { Logger } from "../logger.ts";
import type { BillingStatus, CheckoutStarted } from "../../shared/contract/plans.ts";
import { effectivePlan } from "../../shared/plans.ts";
import { badRequest, conflict, notFound, unavailable, upstreamFailed } from "./errors.ts";
import type { Plans } from "./plans.ts";

export interface BillingConfig {
  secretKey: string;
  webhookSecret: string;
  priceId: string;
  /** Where the provider's API is; only tests set it (a local stand-in on loopback). */
  api?: { host: string; port: number; protocol: "http" | "https" };
}

export interface BillingDeps {
  db: Db;
  plans: Plans;
  /** undefined: payments are not enabled on this installation. */
  config?: BillingConfig;
  publicUrl: URL;
  log: Logger;
}

export const PAYMENTS_NOT_ENABLED = "Payments are not enabled on this installation.";
const PROVIDER_DOWN = "The payment provider could not be reached. Please try again in a minute.";
/** Subscription states in which the user has paid for the current period. */
const PAYING = new Set(["active", "trialing"]);
/** How long processed event ids are kept: far past the provider's retries (3 days). */
const EVENT_MEMORY_SECONDS = 30 * 24 * 3600;

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const idOf = (x: string | { id: string } | null | undefined) => (typeof x === "string" ? x : (x?.id ?? null));

/**
 * The end of the paid period. Recent API versions keep it on each subscription item, older ones
 * on the subscription; a webhook endpoint may be pinned to an older version than this client.
 */
function periodEnd(sub: Stripe.Subscription): number | null {
  const ends = (sub.items?.data ?? []).map((i) => i.current_period_end).filter((n): n is number => typeof n === "number");
  if (ends.length) return Math.max(...ends);
  const legacy = (sub as unknown as { current_period_end?: unknown }).current_period_end;
  return typeof legacy === "number" ? legacy : null;
}

export function createBilling({ db, plans, config, publicUrl, log }: BillingDeps) {
  const stripe = config
    ? new Stripe(config.secretKey, {
        maxNetworkRetries: 2,
        timeout: 20_000,
        telemetry: false,
        appInfo: { name: "faultline" },
        ...(config.api ?? {}),
      })
    : null;

  function client(): Stripe {
    if (!stripe) throw unavailable(PAYMENTS_NOT_ENABLED);
    return stripe;
  }

  /** Calls the provider; its failures become "upstream failed" in words the user can read (details go to the log). */
  async function provider<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (e) {
      log.error(`billing: ${what} failed`, e);
      throw upstreamFailed(PROVIDER_DOWN);
    }
  }

  const subscriptionRow = (userId: string) =>
    db.selectFrom("billing_subscriptions").selectAll().where("user_id", "=", userId).executeTakeFirst();

  async function status(userId: string): Promise<BillingStatus> {
    const row = await subscriptionRow(userId);
    return {
      enabled: stripe !== null,
      subscription: row
        ? {
            status: row.status,
            cancel_at_period_end: row.cancel_at_period_end === 1,
            current_period_end: row.current_period_end === null ? null : iso(row.current_period_end),
          }
        : null,
    };
  }

  /** Records the subscription's state for its user, unless a newer event was applied already. */
  async function saveSubscription(trx: Db, userId: string, sub: Stripe.Subscription, eventCreated: number) {
    const values = {
      customer_id: idOf(sub.customer) ?? "",
      subscription_id: sub.id,
      status: sub.status,
      cancel_at_period_end: sub.cancel_at_period_end ? (1 as const) : (0 as const),
      current_period_end: periodEnd(sub),
      event_created: eventCreated,
      updated_at: nowSeconds(),
    };
    await trx
      .insertInto("billing_subscriptions")
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column("user_id").doUpdateSet(values).where("billing_subscriptions.event_created", "<=", eventCreated))
      .execute();
  }

  /** Whose subscription this is: the row that knows it, else the metadata our checkout set. */
  async function ownerOf(trx: Db, sub: Stripe.Subscription): Promise<string | null> {
    const known = await trx
      .selectFrom("billing_subscriptions")
      .select(["user_id", "subscription_id"])
      .where((eb) => eb.or([eb("subscription_id", "=", sub.id), eb("customer_id", "=", idOf(sub.customer) ?? "")]))
      .orderBy("updated_at", "desc")
      .executeTakeFirst();
    if (known) return known.user_id;
    return existingUser(trx, sub.metadata?.user_id);
  }

  async function existingUser(trx: Db, id: string | null | undefined): Promise<string | null> {
    if (!id) return null;
    const u = await trx.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst();
    return u?.id ?? null;
  }

  /** Applies one verified event (inside its transaction). */
  async function apply(trx: Db, event: Stripe.Event, sub: Stripe.Subscription | null, userId: string | null) {
    if (!sub || !userId) {
      if (event.type.startsWith("customer.subscription.") || event.type === "checkout.session.completed") {
        log.warn(`billing: ${event.type} ${event.id} names no user of this installation; ignored`);
      }
      return;
    }
    const current = await trx.selectFrom("billing_subscriptions").select("subscription_id").where("user_id", "=", userId).executeTakeFirst();
    // A user who subscribed again: the old subscription's late news must not replace the new one.
    const replacesOther = current?.subscription_id && current.subscription_id !== sub.id;
    if (!replacesOther || PAYING.has(sub.status)) await saveSubscription(trx, userId, sub, event.created);
    const end = periodEnd(sub);
    // Paid (or cancelled: what was paid for still runs to the period's end). Overdue or
    // incomplete payments extend nothing.
    if (end !== null && (PAYING.has(sub.status) || sub.status === "canceled")) await plans.extendPro(userId, end, trx);
  }

  return {
    enabled: stripe !== null,
    status,

    /** Starts a Checkout Session for Pro; the answer's url is where the browser goes to pay. */
    async checkout(userId: string): Promise<CheckoutStarted> {
      const s = client();
      const user = await db.selectFrom("users").select(["email", "plan", "plan_until"]).where("id", "=", userId).executeTakeFirst();
      if (!user) throw notFound("User not found");
      const row = await subscriptionRow(userId);
      if (effectivePlan(user.plan, user.plan_until, nowSeconds()) === "pro") {
        throw conflict(
          row?.cancel_at_period_end === 1
            ? "Your Pro subscription is cancelled but still runs: keep it on the billing page instead of buying it again."
            : "You already have Pro.",
        );
      }
      const back = (result: string) => new URL(`/billing?checkout=${result}`, publicUrl).toString();
      const session = await provider("creating a checkout session", () =>
        s.checkout.sessions.create({
          mode: "subscription",
          line_items: [{ price: config!.priceId, quantity: 1 }],
          success_url: back("success"),
          cancel_url: back("cancelled"),
          client_reference_id: userId,
          ...(row?.customer_id ? { customer: row.customer_id } : { customer_email: user.email }),
          metadata: { user_id: userId },
          subscription_data: { metadata: { user_id: userId } },
        }),
      );
      if (!session.url) throw upstreamFailed(PROVIDER_DOWN);
      return { url: session.url };
    },

    /** Cancels at the end of the paid period (true) or keeps the subscription going (false). The
     *  plan is not touched here: Pro runs to the period's end, and the webhook confirms. */
    async setCancelAtPeriodEnd(userId: string, cancel: boolean): Promise<BillingStatus> {
      const s = client();
      const row = await subscriptionRow(userId);
      if (!row?.subscription_id || !PAYING.has(row.status)) throw notFound("You have no running subscription.");
      const sub = await provider("updating a subscription", () =>
        s.subscriptions.update(row.subscription_id!, { cancel_at_period_end: cancel }),
      );
      await db
        .updateTable("billing_subscriptions")
        .set({ cancel_at_period_end: sub.cancel_at_period_end ? 1 : 0, current_period_end: periodEnd(sub) ?? row.current_period_end, updated_at: nowSeconds() })
        .where("user_id", "=", userId)
        .execute();
      return status(userId);
    },

    /**
     * POST /billing/webhook: `raw` is the body exactly as received. A bad or missing signature is
     * a 400 (the provider shows it to the operator); an event seen before changes nothing.
     */
    async webhook(raw: string, signature: string | null): Promise<{ received: true; duplicate?: true }> {
      const s = client();
      if (!signature) throw badRequest("Missing Stripe-Signature header");
      let event: Stripe.Event;
      try {
        event = s.webhooks.constructEvent(raw, signature, config!.webhookSecret);
      } catch (e) {
        // The signature is checked first; a body that is signed but no event fails to parse.
        throw badRequest(e instanceof Stripe.errors.StripeSignatureVerificationError ? "Invalid webhook signature" : "The webhook body is not a Stripe event");
      }
      const seen = await db.selectFrom("billing_events").select("id").where("id", "=", event.id).executeTakeFirst();
      if (seen) return { received: true, duplicate: true };

      // What the event needs from the provider is fetched before the transaction (no network
      // call while holding the database's write lock).
      let sub: Stripe.Subscription | null = null;
      let userId: string | null = null;
      if (event.type === "checkout.session.completed") {
        const session = event.data.object;
        const subId = idOf(session.subscription);
        if (session.mode === "subscription" && subId) {
          sub = await provider("reading a subscription", () => s.subscriptions.retrieve(subId));
          userId = await existingUser(db, session.client_reference_id ?? session.metadata?.user_id);
        }
      } else if (event.type === "customer.subscription.updated" || event.type === "customer.subscription.deleted" || event.type === "customer.subscription.created") {
        sub = event.data.object;
      }

      const fresh = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto("billing_events")
          .values({ id: event.id, type: event.type, received_at: nowSeconds() })
          .onConflict((oc) => oc.column("id").doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
        await apply(trx, event, sub, userId ?? (sub ? await ownerOf(trx, sub) : null));
        return true;
      });
      if (!fresh) return { received: true, duplicate: true };
      await db.deleteFrom("billing_events").where("received_at", "<", nowSeconds() - EVENT_MEMORY_SECONDS).execute();
      return { received: true };
    },
  };
}
export type Billing = ReturnType<typeof createBilling>;
