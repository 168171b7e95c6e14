// Real upgrades, on SQLite and PostgreSQL (server/core/billing.ts): the official `stripe` client
// talks to a local stand-in for Stripe's HTTP API (tests/support/stripe-standin.ts, pointed at by
// STRIPE_API_URL), and webhooks are signed with the library's own
// stripe.webhooks.generateTestHeaderString, as Stripe signs them. Only a verified webhook changes
// a plan; a replay changes nothing; a cancelled subscription keeps Pro to the end of the period.
// Billing means what it says (decision 018): only the Pro price counts,
// only checkouts this installation opened, only paid periods (a declined renewal then a
// cancellation gives nothing), one open checkout at a time, and deleting or disabling an account
// cancels its subscription.
// Over 350 lines: every billing event against one Stripe stand-in and its signed webhooks; the
//  cases build on the helpers above them.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutOpen } from "#server/core/billing.ts";
import { nowSeconds } from "#server/db/index.ts";
import { createTestPlatform, DATABASES, PUBLIC_URL, type TestPlatform } from "../support/platform.ts";
import { startStripeStandin, type StripeStandin } from "../support/stripe-standin.ts";
import { expectError } from "./assertions.ts";

const SECRET_KEY = "sk_test_standin_0123456789";
const WEBHOOK_SECRET = "whsec_standin_0123456789abcdef";
const PRICE = "price_pro_monthly";
/** Something else the same Stripe account sells (a "supporter" plan). */
const OTHER_PRICE = "price_supporter_monthly";
// Only its webhook helpers are used (no network): they are what Stripe's own signing does.
const signer = new Stripe(SECRET_KEY);
const DAY = 24 * 3600;

describe("without payment configuration", () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform("sqlite", { env: { RUNTIME: "none" } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("checkout says plainly that payments are not enabled, and the webhook takes nothing", async () => {
    expect((await t.call("GET", "/billing/config")).body).toEqual({ enabled: false });
    const u = await t.registerVerified();
    const token = (await t.login(u)).access_token;
    expectError(await t.call("POST", "/billing/checkout", { token }), 503, "Payments are not enabled on this installation.");
    expect((await t.call("GET", "/billing", { token })).body).toEqual({ enabled: false, subscription: null });
    expectError(await t.call("POST", "/billing/webhook", { body: "{}", headers: { "stripe-signature": "t=1,v1=00" } }), 503);
  });

  it("half a Stripe configuration stops the server with the missing variables named", async () => {
    await expect(createTestPlatform("sqlite", { env: { STRIPE_SECRET_KEY: SECRET_KEY } })).rejects.toThrow(
      /STRIPE_WEBHOOK_SECRET: is required when any STRIPE_ variable is set\n\s+STRIPE_PRICE_ID: is required/,
    );
  });
});

describe.each(DATABASES)("billing with Stripe (stand-in) on %s", (kind) => {
  let t: TestPlatform;
  let stripe: StripeStandin;

  beforeAll(async () => {
    stripe = await startStripeStandin({ secretKey: SECRET_KEY, prices: [PRICE, OTHER_PRICE] });
    t = await createTestPlatform(kind, {
      env: { RUNTIME: "none", STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_PRICE_ID: PRICE, STRIPE_API_URL: stripe.url },
    });
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  async function customer() {
    const u = await t.registerVerified();
    const token = (await t.login(u)).access_token;
    const { id } = await t.platform.db.selectFrom("users").select("id").where("username", "=", u.username).executeTakeFirstOrThrow();
    return { token, id, email: u.email, username: u.username, password: u.password };
  }

  /** Delivers an event as Stripe does: the JSON body and its Stripe-Signature header. */
  function deliver(event: unknown, { secret = WEBHOOK_SECRET, timestamp }: { secret?: string; timestamp?: number } = {}) {
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
    return t.call("POST", "/billing/webhook", { body: payload, headers: { "stripe-signature": header } });
  }

  const plan = async (token: string) => (await t.call("GET", "/users/me/plan", { token })).body;
  const storedSubscription = (userId: string) => t.platform.db.selectFrom("billing_subscriptions").selectAll().where("user_id", "=", userId).executeTakeFirst();
  /** Delivers each event, as Stripe would one after the other; every one is acknowledged. */
  async function deliverAll(events: unknown[]) {
    for (const e of events) {
      const r = await deliver(e);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  }
  const iso = (s: number) => new Date(s * 1000).toISOString();

  /** Checkout through the platform, paid at the stand-in: the session and its completion event. */
  async function checkout(who: { token: string }, periodEnd?: number) {
    const r = await t.call("POST", "/billing/checkout", { token: who.token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const session = [...stripe.sessions.values()].find((s) => s.url === r.body.url)!;
    return { session, completed: stripe.pay(session.id, periodEnd ? { periodEnd } : {}) };
  }

  it("checkout asks Stripe for a Pro subscription session and changes no plan by itself", async () => {
    expect((await t.call("GET", "/billing/config")).body).toEqual({ enabled: true });
    const c = await customer();
    const r = await t.call("POST", "/billing/checkout", { token: c.token });
    expect(r.status).toBe(200);
    expect(r.body.url).toMatch(new RegExp(`^${stripe.url}/c/pay/cs_`));
    const session = [...stripe.sessions.values()].find((s) => s.url === r.body.url)!;
    expect(session).toMatchObject({
      mode: "subscription",
      price: PRICE,
      success_url: `${PUBLIC_URL}/billing?checkout=success`,
      cancel_url: `${PUBLIC_URL}/billing?checkout=cancelled`,
      client_reference_id: c.id,
      customer_email: c.email,
      subscription_data: { metadata: { user_id: c.id, faultline: expect.any(String) } },
    });
    // What our checkout creates carries this installation's id: the webhook knows its own.
    expect(session.subscription_data.metadata.faultline).toBe(session.metadata.faultline);
    expect(session.expires_at - nowSeconds()).toBeGreaterThanOrEqual(30 * 60);
    expect((await plan(c.token)).plan).toBe("free");
    expectError(await t.call("POST", "/billing/checkout"), 401);
  });

  it("a webhook with a bad, missing or stale signature, or a changed body, is refused and changes nothing", async () => {
    const c = await customer();
    const { completed } = await checkout(c);
    expectError(await deliver(completed, { secret: "whsec_someone_else" }), 400, "Invalid webhook signature");
    expectError(await t.call("POST", "/billing/webhook", { body: JSON.stringify(completed) }), 400, "Missing Stripe-Signature header");
    // Signed five minutes and more ago: outside the library's tolerance (a captured delivery replayed later).
    expectError(await deliver(completed, { timestamp: nowSeconds() - 600 }), 400, "Invalid webhook signature");
    const payload = JSON.stringify(completed);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const forged = payload.replace(c.id, "another-user-id");
    expectError(await t.call("POST", "/billing/webhook", { body: forged, headers: { "stripe-signature": header } }), 400, "Invalid webhook signature");
    expect((await plan(c.token)).plan).toBe("free");
    expect(await t.platform.db.selectFrom("billing_events").select("id").where("id", "=", completed.id).executeTakeFirst()).toBeUndefined();
  });

  it("the completed checkout's webhook upgrades to Pro until the end of the paid period; a replay is ignored", async () => {
    const c = await customer();
    const end = nowSeconds() + 30 * DAY;
    const { completed, session } = await checkout(c, end);
    const r = await deliver(completed);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ received: true });
    expect(await plan(c.token)).toMatchObject({ plan: "pro", plan_until: iso(end), limits: { concurrent_deployments: 3, medium_per_month: null } });
    expect((await t.call("GET", "/users/me", { token: c.token })).body).toMatchObject({ plan: "pro", plan_until: iso(end) });
    expect((await t.call("GET", "/billing", { token: c.token })).body).toEqual({
      enabled: true,
      subscription: { status: "active", cancel_at_period_end: false, current_period_end: iso(end) },
    });
    expectError(await t.call("POST", "/billing/checkout", { token: c.token }), 409, "You already have Pro.");

    // An admin takes Pro away; Stripe delivers the same event again (it retries): nothing changes.
    await t.platform.plans.setPlan(c.id, "free", null);
    const replay = await deliver(completed);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect((await plan(c.token)).plan).toBe("free");
    expect(stripe.calls.filter((x) => x.method === "GET" && x.path === `/v1/subscriptions/${session.subscription}`)).toHaveLength(1);
  });

  it("cancel at period end goes to Stripe and keeps Pro until the period's end; the subscription's end makes it free", async () => {
    const c = await customer();
    // A period that ends in a few seconds, so the test can see it end.
    const end = nowSeconds() + 8;
    const { completed, session } = await checkout(c, end);
    await deliver(completed);
    const subId = session.subscription as string;

    const cancelled = await t.call("POST", "/billing/cancel", { token: c.token, body: { cancel_at_period_end: true } });
    expect(cancelled.body).toEqual({ enabled: true, subscription: { status: "active", cancel_at_period_end: true, current_period_end: iso(end) } });
    expect(stripe.subscriptions.get(subId)!.cancel_at_period_end).toBe(true);
    expect(stripe.calls.at(-1)).toMatchObject({ method: "POST", path: `/v1/subscriptions/${subId}`, params: { cancel_at_period_end: "true" } });
    // Stripe confirms with customer.subscription.updated: still Pro, to the same end.
    expect((await deliver(stripe.change(subId, {}))).status).toBe(200);
    expect(await plan(c.token)).toMatchObject({ plan: "pro", plan_until: iso(end) });

    // An older event delivered late (before the cancellation) does not undo it.
    const older = stripe.event("customer.subscription.updated", { ...stripe.subscriptions.get(subId)!, cancel_at_period_end: false }, nowSeconds() - 3600);
    await deliver(older);
    expect((await t.call("GET", "/billing", { token: c.token })).body.subscription.cancel_at_period_end).toBe(true);

    // The period ends and Stripe deletes the subscription: Pro ran exactly to its end.
    await deliver(stripe.change(subId, { status: "canceled" }, "customer.subscription.deleted"));
    expect(await plan(c.token)).toMatchObject({ plan: "pro", plan_until: iso(end) });
    while (nowSeconds() <= end) await new Promise((r) => setTimeout(r, 250));
    expect(await plan(c.token)).toMatchObject({ plan: "free", plan_until: null });
    expect((await t.call("GET", "/billing", { token: c.token })).body.subscription).toMatchObject({ status: "canceled" });
    expectError(await t.call("POST", "/billing/cancel", { token: c.token, body: { cancel_at_period_end: false } }), 404, "You have no running subscription.");
  });

  it("a subscription deleted before its period ends keeps Pro to the end that was paid for", async () => {
    const c = await customer();
    const end = nowSeconds() + 10 * DAY;
    const { completed, session } = await checkout(c, end);
    await deliver(completed);
    await deliver(stripe.change(session.subscription as string, { status: "canceled" }, "customer.subscription.deleted"));
    expect(await plan(c.token)).toMatchObject({ plan: "pro", plan_until: iso(end) });
  });

  it("a renewal extends Pro when its invoice is paid, not when the subscription says active", async () => {
    const c = await customer();
    const end = nowSeconds() + 5 * DAY;
    const { completed, session } = await checkout(c, end);
    await deliver(completed);
    const subId = session.subscription as string;
    const [paid, updated] = stripe.renew(subId, { paid: true, periodEnd: end + 30 * DAY });
    // The subscription's news comes first: it records the new period, it pays for nothing.
    await deliver(updated);
    expect((await plan(c.token)).plan_until).toBe(iso(end));
    expect((await t.call("GET", "/billing", { token: c.token })).body.subscription).toMatchObject({
      status: "active",
      current_period_end: iso(end + 30 * DAY),
    });
    await deliver(paid);
    expect(paid.type).toBe("invoice.paid");
    expect((await plan(c.token)).plan_until).toBe(iso(end + 30 * DAY));
  });

  it("a declined renewal, then the cancellation when dunning gives up, gives no Pro for the unpaid period", async () => {
    const c = await customer();
    const end = nowSeconds() + 5 * DAY;
    const { completed, session } = await checkout(c, end);
    await deliver(completed);
    const subId = session.subscription as string;
    const declined = stripe.renew(subId, { paid: false, periodEnd: end + 30 * DAY });
    expect(declined.map((e) => e.type)).toEqual(["invoice.payment_failed", "customer.subscription.updated"]);
    await deliverAll(declined);
    expect(await plan(c.token)).toMatchObject({ plan: "pro", plan_until: iso(end) });
    // Stripe's retries fail too; it cancels the subscription, whose period end is the unpaid one's.
    const deleted = stripe.change(subId, { status: "canceled" }, "customer.subscription.deleted");
    expect(deleted.data.object.items.data[0].current_period_end).toBe(end + 30 * DAY);
    await deliver(deleted);
    expect(await plan(c.token)).toMatchObject({ plan: "pro", plan_until: iso(end) });
    expect((await t.call("GET", "/billing", { token: c.token })).body.subscription).toMatchObject({ status: "canceled" });
  });

  it("invoice.paid delivered before the checkout's completion already grants Pro (our metadata names the user)", async () => {
    const c = await customer();
    const end = nowSeconds() + 30 * DAY;
    const { completed, session } = await checkout(c, end);
    await deliver(stripe.invoicePaid(session.subscription as string));
    expect(await plan(c.token)).toMatchObject({ plan: "pro", plan_until: iso(end) });
    await deliver(completed);
    expect(await plan(c.token)).toMatchObject({ plan: "pro", plan_until: iso(end) });
    expect(await t.platform.db.selectFrom("billing_checkouts").select("status").where("session_id", "=", session.id).executeTakeFirst()).toEqual({
      status: "complete",
    });
  });

  it("another product, even bought through a Payment Link naming the user, gives nothing", async () => {
    const c = await customer();
    const { events } = stripe.elsewhere({ price: OTHER_PRICE, clientReferenceId: c.id, metadata: { user_id: c.id } });
    expect(events.map((e) => e.type)).toEqual(["customer.subscription.created", "invoice.paid", "checkout.session.completed"]);
    await deliverAll(events);
    expect(await plan(c.token)).toMatchObject({ plan: "free", plan_until: null });
    expect(await storedSubscription(c.id)).toBeUndefined();
  });

  it("the Pro price bought without this installation's checkout (a Payment Link, another installation) gives nothing", async () => {
    const c = await customer();
    // A Payment Link for the Pro price: client_reference_id comes from the link's URL, anyone's to set.
    await deliverAll(stripe.elsewhere({ price: PRICE, clientReferenceId: c.id, metadata: { user_id: c.id } }).events);
    // Another installation on the same Stripe account (staging, say) whose user ids collide.
    await deliverAll(stripe.elsewhere({ price: PRICE, clientReferenceId: c.id, metadata: { user_id: c.id, faultline: "another-installation" } }).events);
    expect(await plan(c.token)).toMatchObject({ plan: "free", plan_until: null });
    expect(await storedSubscription(c.id)).toBeUndefined();
  });

  it("a known customer's subscription to something else neither extends Pro nor replaces the Pro subscription", async () => {
    const c = await customer();
    const end = nowSeconds() + 10 * DAY;
    const { completed, session } = await checkout(c, end);
    await deliver(completed);
    const pro = await storedSubscription(c.id);
    expect(pro?.subscription_id).toBe(session.subscription);
    // A Dashboard subscription (or a portal plan switch) on the same customer, running longer.
    const other = stripe.elsewhere({ price: OTHER_PRICE, customer: session.customer, periodEnd: end + 60 * DAY });
    await deliverAll([...other.events, stripe.change(other.subscription.id, {})]);
    expect(await plan(c.token)).toMatchObject({ plan: "pro", plan_until: iso(end) });
    expect((await storedSubscription(c.id))?.subscription_id).toBe(session.subscription);
    // The Pro subscription can still be cancelled from faultline.
    const cancelled = await t.call("POST", "/billing/cancel", { token: c.token, body: { cancel_at_period_end: true } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(stripe.subscriptions.get(session.subscription as string)!.cancel_at_period_end).toBe(true);
    expect(stripe.subscriptions.get(other.subscription.id)!.cancel_at_period_end).toBe(false);
  });

  it("a second checkout while one is open is refused, also when both are asked at once; an expired one frees the way", async () => {
    const c = await customer();
    const both = await Promise.all([t.call("POST", "/billing/checkout", { token: c.token }), t.call("POST", "/billing/checkout", { token: c.token })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = both.find((r) => r.status === 409)!;
    expectError(refused, 409, checkoutOpen(31));
    expectError(await t.call("POST", "/billing/checkout", { token: c.token }), 409, /^You already have a checkout open\./);
    const made = [...stripe.sessions.values()].filter((s) => s.client_reference_id === c.id);
    expect(made).toHaveLength(1);
    // The customer let it expire at Stripe: a new one may start.
    await deliver(stripe.expire(made[0]!.id));
    const again = await t.call("POST", "/billing/checkout", { token: c.token });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect([...stripe.sessions.values()].filter((s) => s.client_reference_id === c.id)).toHaveLength(2);
  });

  it("a checkout the provider could not open leaves no open checkout behind", async () => {
    const c = await customer();
    stripe.down = true;
    try {
      expectError(
        await t.call("POST", "/billing/checkout", { token: c.token }),
        502,
        "The payment provider could not be reached. Please try again in a minute.",
      );
    } finally {
      stripe.down = false;
    }
    expect((await t.call("POST", "/billing/checkout", { token: c.token })).status).toBe(200);
  });

  it("deleting the account cancels its subscription at once, and a checkout it left open or just paid", async () => {
    const c = await customer();
    const { completed, session } = await checkout(c);
    await deliver(completed);
    const subId = session.subscription as string;
    expect((await t.call("DELETE", "/users/me", { token: c.token, body: { current_password: c.password } })).status).toBe(200);
    expect(stripe.calls).toContainEqual(expect.objectContaining({ method: "DELETE", path: `/v1/subscriptions/${subId}` }));
    expect(stripe.subscriptions.get(subId)).toMatchObject({ status: "canceled" });
    // Stripe's confirmation names no user any more: acknowledged, ignored.
    expect((await deliver(stripe.change(subId, { status: "canceled" }, "customer.subscription.deleted"))).body).toEqual({ received: true });

    // A checkout left open expires (it can no longer be paid into an account that is gone).
    const open = await customer();
    const r = await t.call("POST", "/billing/checkout", { token: open.token });
    const pending = [...stripe.sessions.values()].find((s) => s.url === r.body.url)!;
    expect((await t.call("DELETE", "/users/me", { token: open.token, body: { current_password: open.password } })).status).toBe(200);
    expect(stripe.sessions.get(pending.id)!.status).toBe("expired");

    // Paid at Stripe a moment ago, its webhook not here yet: the new subscription is cancelled too.
    const paying = await customer();
    const paid = await checkout(paying);
    expect((await t.call("DELETE", "/users/me", { token: paying.token, body: { current_password: paying.password } })).status).toBe(200);
    expect(stripe.subscriptions.get(paid.session.subscription as string)).toMatchObject({ status: "canceled" });
  });

  it("the account is not deleted while its subscription cannot be cancelled", async () => {
    const c = await customer();
    const { completed, session } = await checkout(c);
    await deliver(completed);
    stripe.down = true;
    try {
      expectError(
        await t.call("DELETE", "/users/me", { token: c.token, body: { current_password: c.password } }),
        502,
        "The payment provider could not be reached. Please try again in a minute.",
      );
    } finally {
      stripe.down = false;
    }
    expect((await t.call("GET", "/users/me", { token: c.token })).status).toBe(200);
    expect(stripe.subscriptions.get(session.subscription as string)).toMatchObject({ status: "active" });
    expect((await t.call("DELETE", "/users/me", { token: c.token, body: { current_password: c.password } })).status).toBe(200);
    expect(stripe.subscriptions.get(session.subscription as string)).toMatchObject({ status: "canceled" });
  });

  it("disabling the account stops its subscription at the end of the paid period; the audit entry says so", async () => {
    const admin = await customer();
    await t.platform.accounts.setAdmin(admin.username, true);
    const c = await customer();
    const end = nowSeconds() + 10 * DAY;
    const { completed, session } = await checkout(c, end);
    await deliver(completed);
    const res = await t.call("POST", `/admin/users/${c.id}/disable`, { token: admin.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(stripe.subscriptions.get(session.subscription as string)).toMatchObject({ status: "active", cancel_at_period_end: true });
    expect(await storedSubscription(c.id)).toMatchObject({ cancel_at_period_end: 1 });
    const entry = (await t.call("GET", `/admin/audit?action=admin.user_disable&user=${c.id}`, { token: admin.token })).body.entries[0];
    expect(entry).toMatchObject({ target_type: "user", target_id: c.id, detail: { subscription: "cancels at period end" } });
    // What was paid for still runs.
    expect((await t.platform.plans.status(c.id)).plan_until).toBe(iso(end));
  });

  it("bad input: a cancel body that is not a boolean, no subscription, events for nobody here", async () => {
    const c = await customer();
    expectError(
      await t.call("POST", "/billing/cancel", { token: c.token, body: { cancel_at_period_end: "yes" } }),
      400,
      "cancel_at_period_end: must be true or false",
    );
    expectError(await t.call("POST", "/billing/cancel", { token: c.token, body: { cancel_at_period_end: true } }), 404, "You have no running subscription.");
    // A subscription of another installation's customer: acknowledged (so Stripe stops retrying), ignored.
    const stranger = stripe.event("customer.subscription.updated", {
      id: "sub_elsewhere",
      object: "subscription",
      customer: "cus_elsewhere",
      status: "active",
      cancel_at_period_end: false,
      metadata: {},
      items: { object: "list", data: [{ id: "si_x", current_period_end: nowSeconds() + DAY }] },
    });
    expect((await deliver(stranger)).body).toEqual({ received: true });
    expect(
      await t.platform.db.selectFrom("billing_subscriptions").select("user_id").where("subscription_id", "=", "sub_elsewhere").executeTakeFirst(),
    ).toBeUndefined();
    // Signed, but not JSON at all.
    const header = signer.webhooks.generateTestHeaderString({ payload: "not json", secret: WEBHOOK_SECRET });
    expectError(
      await t.call("POST", "/billing/webhook", { body: "not json", headers: { "stripe-signature": header } }),
      400,
      "The webhook body is not a Stripe event",
    );
  });

  it("the provider being down is a 502 the user can read", async () => {
    const down = await createTestPlatform(kind, {
      env: {
        RUNTIME: "none",
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_PRICE_ID: PRICE,
        STRIPE_API_URL: "http://127.0.0.1:1",
      },
    });
    try {
      const u = await down.registerVerified();
      const token = (await down.login(u)).access_token;
      expectError(await down.call("POST", "/billing/checkout", { token }), 502, "The payment provider could not be reached. Please try again in a minute.");
    } finally {
      await down.close();
    }
  });
});
