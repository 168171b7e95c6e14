// Real upgrades through Stripe, when it is configured (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET,
// STRIPE_PRICE_ID): a Checkout Session for the Pro subscription, cancelling (or keeping) it at
// the end of the paid period, ending it with the account, and the webhook that is the only thing
// that switches a plan. The webhook is verified on the raw body with the library's own
// constructEvent, is idempotent on the event id (billing_events; the provider retries
// deliveries), and records a subscription's state only if no newer event was applied before it
// (deliveries can arrive out of order).
//
// What counts (docs/decisions/018-billing-and-audit-by-id.md; docs/api.md "Plans and billing"):
// - a subscription is Pro's only when one of its items is STRIPE_PRICE_ID (the same Stripe account
//   may sell other things), and it belongs to a user only if this installation made it: its id is
//   stored here, or its metadata carries this installation's id with the user's (our checkout
//   sets both). A customer id shared with an earlier purchase proves nothing;
// - a completed checkout counts only if it is a session this installation opened
//   (billing_checkouts), for the user who opened it: `client_reference_id` is anyone's to set
//   (a Payment Link takes it from its URL);
// - Pro is extended only by a paid invoice, to the end of the period that invoice paid for
//   (`invoice.paid`, and the first invoice when the checkout completes). Subscription events only
//   record the state: a renewal whose charge fails moves the subscription's period end, and when
//   dunning gives up it is `canceled` with that unpaid end, which must give nothing;
// - one open checkout per user (a second one would buy a subscription nobody tracks), and
//   deleting an account cancels its subscription at once; disabling one cancels it at the end of
//   the paid period (an admin may enable the account again, and its owner keep Pro).
// Over 350 lines: the billing rules (checkout, webhook events, plan periods, cancellation) around
//  one provider client.
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import type { BillingConfig } from "#server/config.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { Logger } from "#server/logger.ts";
import type { BillingStatus, CheckoutStarted } from "#shared/contract/plans.ts";
import { effectivePlan } from "#shared/plans.ts";
import { badRequest, conflict, notFound, unavailable, upstreamFailed } from "./errors.ts";
import type { Plans } from "./plans.ts";

export interface BillingDeps {
  db: Db;
  plans: Plans;
  /** undefined: payments are not enabled on this installation. */
  config?: BillingConfig;
  publicUrl: URL;
  log: Logger;
  /** This installation's id (server/platform.ts): written into the metadata of what our checkout
   *  creates, so subscriptions of another installation on the same Stripe account are not ours. */
  installation: string;
}

export const PAYMENTS_NOT_ENABLED = "Payments are not enabled on this installation.";
const PROVIDER_DOWN = "The payment provider could not be reached. Please try again in a minute.";
export const checkoutOpen = (minutes: number) =>
  `You already have a checkout open. Finish paying there, or start again once it expires (in ${minutes} minute${minutes === 1 ? "" : "s"}).`;
/** Subscription states in which the user has paid for the current period. */
const PAYING = new Set(["active", "trialing"]);
/** States in which the subscription is over at the provider: nothing left to cancel. */
const ENDED = new Set(["canceled", "incomplete_expired"]);
/** How long processed event ids are kept: far past the provider's retries (3 days). */
const EVENT_MEMORY_SECONDS = 30 * 24 * 3600;
/** How long a Checkout Session can be paid: Stripe's shortest (30 minutes), plus a margin for the
 *  clocks. While one is open, no second checkout starts. */
const CHECKOUT_SECONDS = 31 * 60;

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const idOf = (x: string | { id: string } | null | undefined) => (typeof x === "string" ? x : (x?.id ?? null));

/**
 * The end of the subscription's current period, as the provider states it (not what was paid
 * for: see paidThrough). Recent API versions keep it on each subscription item, older ones on the
 * subscription; a webhook endpoint may be pinned to an older version than this client.
 */
function periodEnd(sub: Stripe.Subscription): number | null {
  const ends = (sub.items?.data ?? []).map((i) => i.current_period_end).filter((n): n is number => typeof n === "number");
  if (ends.length) return Math.max(...ends);
  const legacy = (sub as unknown as { current_period_end?: unknown }).current_period_end;
  return typeof legacy === "number" ? legacy : null;
}

/** The subscription an invoice bills (in `parent` since API 2025-03-31, on the invoice before). */
function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  const fromParent = idOf(invoice.parent?.subscription_details?.subscription);
  if (fromParent) return fromParent;
  return idOf((invoice as unknown as { subscription?: string | { id: string } | null }).subscription);
}

/** A line's price (in `pricing` since API 2025-03-31, `price` before). */
function linePrice(line: Stripe.InvoiceLineItem): string | null {
  const details = line.pricing?.price_details?.price;
  if (details) return idOf(details as string | { id: string });
  return idOf((line as unknown as { price?: string | { id: string } | null }).price);
}

export function createBilling({ db, plans, config, publicUrl, log, installation }: BillingDeps) {
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

  /** Is this a subscription to Pro (one of its items is our price)? */
  const isPro = (sub: Stripe.Subscription) => (sub.items?.data ?? []).some((i) => idOf(i.price) === config?.priceId);

  /** The end of the period a paid invoice paid for Pro: its Pro lines' end; null when it is not
   *  paid or bills something else. */
  function paidThrough(invoice: Stripe.Invoice | string | null | undefined): number | null {
    if (!invoice || typeof invoice === "string" || invoice.status !== "paid") return null;
    const ends = (invoice.lines?.data ?? [])
      .filter((l) => linePrice(l) === config?.priceId)
      .map((l) => l.period?.end)
      .filter((n): n is number => typeof n === "number");
    return ends.length ? Math.max(...ends) : null;
  }

  const subscriptionRow = (userId: string) => db.selectFrom("billing_subscriptions").selectAll().where("user_id", "=", userId).executeTakeFirst();

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

  /** Whose Pro subscription this is: the user it is stored for, else the user our checkout named
   *  in its metadata, if that metadata is this installation's. Null: not ours. */
  async function ownerOf(trx: Db, sub: Stripe.Subscription): Promise<string | null> {
    if (!isPro(sub)) return null;
    const known = await trx.selectFrom("billing_subscriptions").select("user_id").where("subscription_id", "=", sub.id).executeTakeFirst();
    if (known) return known.user_id;
    if (sub.metadata?.faultline !== installation) return null;
    return existingUser(trx, sub.metadata?.user_id);
  }

  async function existingUser(trx: Db, id: string | null | undefined): Promise<string | null> {
    if (!id) return null;
    const u = await trx.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst();
    return u?.id ?? null;
  }

  /** Applies one verified event (inside its transaction): records the subscription's state and
   *  extends Pro to the end of a paid period, if the event brought one. */
  async function apply(trx: Db, event: Stripe.Event, sub: Stripe.Subscription | null, userId: string | null, paidEnd: number | null) {
    if (!sub || !userId || !isPro(sub)) {
      if (sub) log.warn(`billing: ${event.type} ${event.id} is about no Pro subscription of this installation; ignored`);
      return;
    }
    const current = await trx.selectFrom("billing_subscriptions").select("subscription_id").where("user_id", "=", userId).executeTakeFirst();
    // A user who subscribed again: the old subscription's late news must not replace the new one.
    const replacesOther = current?.subscription_id && current.subscription_id !== sub.id;
    if (!replacesOther || PAYING.has(sub.status)) await saveSubscription(trx, userId, sub, event.created);
    if (paidEnd !== null) await plans.extendPro(userId, paidEnd, trx);
  }

  /** Closes the user's checkouts past their time (the provider expired them too). */
  const closeExpired = (userId: string) =>
    db
      .updateTable("billing_checkouts")
      .set({ status: "expired" })
      .where("user_id", "=", userId)
      .where("status", "=", "open")
      .where("expires_at", "<=", nowSeconds())
      .execute();

  /**
   * Claims the user's one open checkout slot (the partial unique index on open rows decides
   * between two requests racing); a 409 saying when the open one expires if it is taken.
   */
  async function claimCheckout(userId: string): Promise<string> {
    await closeExpired(userId);
    const claim = `pending:${randomUUID()}`;
    const now = nowSeconds();
    try {
      await db
        .insertInto("billing_checkouts")
        .values({ session_id: claim, user_id: userId, status: "open", created_at: now, expires_at: now + CHECKOUT_SECONDS })
        .execute();
      return claim;
    } catch (e) {
      if (!/unique|duplicate/i.test(String(e))) throw e;
      const open = await db.selectFrom("billing_checkouts").select("expires_at").where("user_id", "=", userId).where("status", "=", "open").executeTakeFirst();
      throw conflict(checkoutOpen(Math.max(1, Math.ceil(((open?.expires_at ?? now + 60) - now) / 60))));
    }
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
      const claim = await claimCheckout(userId);
      const back = (result: string) => new URL(`/billing?checkout=${result}`, publicUrl).toString();
      const ours = { user_id: userId, faultline: installation };
      let session: Stripe.Checkout.Session;
      try {
        session = await provider("creating a checkout session", () =>
          s.checkout.sessions.create({
            mode: "subscription",
            line_items: [{ price: config!.priceId, quantity: 1 }],
            success_url: back("success"),
            cancel_url: back("cancelled"),
            // For the operator's Dashboard only: a completed session counts by its id (billing_checkouts).
            client_reference_id: userId,
            ...(row?.customer_id ? { customer: row.customer_id } : { customer_email: user.email }),
            expires_at: nowSeconds() + CHECKOUT_SECONDS,
            metadata: ours,
            subscription_data: { metadata: ours },
          }),
        );
        if (!session.url) throw upstreamFailed(PROVIDER_DOWN);
      } catch (e) {
        await db.deleteFrom("billing_checkouts").where("session_id", "=", claim).execute();
        throw e;
      }
      await db
        .updateTable("billing_checkouts")
        .set({ session_id: session.id, expires_at: session.expires_at ?? nowSeconds() + CHECKOUT_SECONDS })
        .where("session_id", "=", claim)
        .execute();
      return { url: session.url };
    },

    /** Cancels at the end of the paid period (true) or keeps the subscription going (false). The
     *  plan is not touched here: Pro runs to the period's end, and the webhook confirms. */
    async setCancelAtPeriodEnd(userId: string, cancel: boolean): Promise<BillingStatus> {
      const s = client();
      const row = await subscriptionRow(userId);
      if (!row?.subscription_id || !PAYING.has(row.status)) throw notFound("You have no running subscription.");
      const sub = await provider("updating a subscription", () => s.subscriptions.update(row.subscription_id!, { cancel_at_period_end: cancel }));
      await db
        .updateTable("billing_subscriptions")
        .set({ cancel_at_period_end: sub.cancel_at_period_end ? 1 : 0, current_period_end: periodEnd(sub) ?? row.current_period_end, updated_at: nowSeconds() })
        .where("user_id", "=", userId)
        .execute();
      return status(userId);
    },

    /**
     * Ends what the user pays for: an open checkout expires (it can no longer be paid; one paid a
     * moment ago has its new subscription cancelled too), and a running subscription is cancelled
     * at once (`now`: the account is being deleted) or at the end of its paid period (disabled).
     * Throws "upstream failed" when the provider cannot be reached, before anything is changed
     * here. Says what it did, for the audit log.
     */
    async endFor(userId: string, { now }: { now: boolean }): Promise<"none" | "cancelled" | "cancels at period end"> {
      const checkouts = await db.selectFrom("billing_checkouts").select("session_id").where("user_id", "=", userId).where("status", "=", "open").execute();
      const row = await subscriptionRow(userId);
      const running = row?.subscription_id && !ENDED.has(row.status) ? [row.subscription_id] : [];
      if (!checkouts.length && !running.length) return "none";
      if (!stripe) {
        log.warn(`billing: user ${userId} has a subscription or checkout, but payments are not configured: nothing was cancelled`);
        return "none";
      }
      for (const c of checkouts) {
        if (c.session_id.startsWith("pending:")) continue;
        const session = await provider("reading a checkout session", () => stripe.checkout.sessions.retrieve(c.session_id));
        if (session.status === "open") await provider("expiring a checkout session", () => stripe.checkout.sessions.expire(c.session_id));
        const paid = idOf(session.subscription);
        if (session.status === "complete" && paid && !running.includes(paid)) running.push(paid);
      }
      for (const id of running) {
        if (now) await provider("cancelling a subscription", () => stripe.subscriptions.cancel(id));
        else await provider("cancelling a subscription at its period's end", () => stripe.subscriptions.update(id, { cancel_at_period_end: true }));
      }
      await db.updateTable("billing_checkouts").set({ status: "expired" }).where("user_id", "=", userId).where("status", "=", "open").execute();
      if (row && running.length) {
        await db
          .updateTable("billing_subscriptions")
          .set(now ? { status: "canceled", updated_at: nowSeconds() } : { cancel_at_period_end: 1, updated_at: nowSeconds() })
          .where("user_id", "=", userId)
          .execute();
      }
      return running.length ? (now ? "cancelled" : "cancels at period end") : "none";
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
      let paidEnd: number | null = null;
      let checkout: { id: string; status: "complete" | "expired" } | null = null;
      if (event.type === "checkout.session.completed") {
        const session = event.data.object;
        const opened = await db.selectFrom("billing_checkouts").select("user_id").where("session_id", "=", session.id).executeTakeFirst();
        const subId = idOf(session.subscription);
        if (!opened) log.warn(`billing: checkout ${session.id} was not opened by this installation; ignored`);
        else if (session.mode === "subscription" && subId) {
          checkout = { id: session.id, status: "complete" };
          sub = await provider("reading a subscription", () => s.subscriptions.retrieve(subId, { expand: ["latest_invoice"] }));
          userId = opened.user_id;
          paidEnd = paidThrough(sub.latest_invoice);
        }
      } else if (event.type === "checkout.session.expired") {
        checkout = { id: event.data.object.id, status: "expired" };
      } else if (event.type === "invoice.paid") {
        const invoice = event.data.object;
        const subId = invoiceSubscription(invoice);
        paidEnd = paidThrough(invoice);
        // An invoice that pays for no Pro period (another product) needs no look at its subscription.
        if (subId && paidEnd !== null) sub = await provider("reading a subscription", () => s.subscriptions.retrieve(subId));
      } else if (
        event.type === "customer.subscription.updated" ||
        event.type === "customer.subscription.deleted" ||
        event.type === "customer.subscription.created"
      ) {
        sub = event.data.object;
      }

      const fresh = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto("billing_events")
          .values({ id: event.id, type: event.type, received_at: nowSeconds() })
          .onConflict((oc) => oc.column("id").doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
        if (checkout) await trx.updateTable("billing_checkouts").set({ status: checkout.status }).where("session_id", "=", checkout.id).execute();
        await apply(trx, event, sub, userId ?? (sub ? await ownerOf(trx, sub) : null), paidEnd);
        return true;
      });
      if (!fresh) return { received: true, duplicate: true };
      await db
        .deleteFrom("billing_events")
        .where("received_at", "<", nowSeconds() - EVENT_MEMORY_SECONDS)
        .execute();
      return { received: true };
    },
  };
}
export type Billing = ReturnType<typeof createBilling>;
