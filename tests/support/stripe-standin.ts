// A stand-in for the few endpoints of Stripe's HTTP API that faultline calls, as a real HTTP
// server on loopback (plain node:http), so tests run the official `stripe` client end to end:
// its request encoding, authentication header and error handling. Point the platform at it with
// STRIPE_API_URL=<url>.
//
//   POST   /v1/checkout/sessions            mode=subscription, one line item of a known price,
//                                           success and cancel URLs, expires_at 30 min to 24 h
//                                           ahead; answers a session with a url to "pay" at.
//   GET    /v1/checkout/sessions/:id        the session as it stands.
//   POST   /v1/checkout/sessions/:id/expire an open session can no longer be paid.
//   GET    /v1/subscriptions/:id            the subscription as it stands (expand[]=latest_invoice).
//   POST   /v1/subscriptions/:id            cancel_at_period_end=true|false.
//   DELETE /v1/subscriptions/:id            cancels it at once.
//
// Like Stripe it wants `Authorization: Bearer <the secret key>` (401 otherwise) and answers
// errors as {"error": {"type", "message"}}. What a customer does at Stripe (paying, a renewal
// charged or declined, the period ending, buying something else through a Payment Link) is done
// by the test through `pay`, `renew`, `change`, `elsewhere`..., which build the objects and the
// events Stripe would send (shaped as API version 2025-03-31 and later shape them: an invoice's
// subscription under `parent`, a line's price under `pricing`); the test signs them with
// stripe.webhooks.generateTestHeaderString. `down = true` makes every call answer 500.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type Obj = Record<string, any>;

export interface StandinOptions {
  secretKey: string;
  /** The price ids Checkout accepts (and `elsewhere` may sell). */
  prices: string[];
}

const DAY = 24 * 3600;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const now = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding: a[b][0][c]=v into nested objects and arrays. */
export function parseStripeForm(body: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, "").split("[");
    let node: any = out;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return out;
}

export async function startStripeStandin(opts: StandinOptions) {
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  /** Every API call received, for assertions ("the platform asked Stripe to cancel"). */
  const calls: { method: string; path: string; params: Obj }[] = [];
  const state = { down: false };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, message: string, code?: string) =>
    send(res, status, { error: { type: status >= 500 ? "api_error" : "invalid_request_error", message, ...(code ? { code } : {}) } });

  /** The subscription as the API answers it: latest_invoice as an id, or the invoice when expanded. */
  const subscriptionView = (s: Obj, expand: string[] = []) =>
    expand.includes("latest_invoice") && s.latest_invoice ? { ...s, latest_invoice: invoices.get(s.latest_invoice) } : s;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? "/", "http://standin");
    if (req.headers.authorization !== `Bearer ${opts.secretKey}`) return fail(res, 401, "Invalid API Key provided");
    const params = parseStripeForm(req.method === "GET" ? url.search.slice(1) : raw);
    calls.push({ method: req.method ?? "", path: url.pathname, params });
    if (state.down) return fail(res, 500, "An unknown error occurred (the stand-in is down)");

    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      if (params.mode !== "subscription") return fail(res, 400, "This stand-in only knows mode=subscription");
      const items = (params.line_items ?? []) as Obj[];
      if (items.length !== 1 || !opts.prices.includes(items[0]!.price)) return fail(res, 400, `No such price: '${items[0]?.price}'`, "resource_missing");
      if (!params.success_url || !params.cancel_url) return fail(res, 400, "success_url and cancel_url are required");
      const expiresAt = params.expires_at === undefined ? now() + DAY : Number(params.expires_at);
      if (!(expiresAt >= now() + 30 * 60 && expiresAt <= now() + DAY))
        return fail(res, 400, "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.");
      return send(res, 200, openSession({ ...params, price: items[0]!.price, expires_at: expiresAt }));
    }
    const session = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(url.pathname);
    if (session) {
      const cs = sessions.get(decodeURIComponent(session[1]!));
      if (!cs) return fail(res, 404, `No such checkout.session: '${session[1]}'`, "resource_missing");
      if (req.method === "GET" && !session[2]) return send(res, 200, cs);
      if (req.method === "POST" && session[2]) {
        if (cs.status !== "open") return fail(res, 400, 'Only Checkout Sessions with a status in ["open"] can be expired.');
        cs.status = "expired";
        return send(res, 200, cs);
      }
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
    if (sub) {
      const s = subscriptions.get(decodeURIComponent(sub[1]!));
      if (!s) return fail(res, 404, `No such subscription: '${sub[1]}'`, "resource_missing");
      if (req.method === "GET") return send(res, 200, subscriptionView(s, params.expand ?? []));
      if (req.method === "POST") {
        if (params.cancel_at_period_end !== undefined) {
          if (s.status === "canceled") return fail(res, 400, "A canceled subscription can only update its cancellation_details and metadata.");
          s.cancel_at_period_end = params.cancel_at_period_end === "true";
          s.cancel_at = s.cancel_at_period_end ? s.items.data[0].current_period_end : null;
        }
        return send(res, 200, s);
      }
      if (req.method === "DELETE") {
        if (s.status === "canceled") return fail(res, 400, `No such subscription: '${s.id}'`, "resource_missing");
        Object.assign(s, { status: "canceled", canceled_at: now(), ended_at: now() });
        return send(res, 200, s);
      }
    }
    return fail(res, 404, `Unrecognized request URL (${req.method}: ${url.pathname})`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => fail(res, 500, String(e)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const host = () => `127.0.0.1:${(server.address() as AddressInfo).port}`;

  function openSession(params: Obj): Obj {
    const session = {
      id: newId("cs_test"),
      object: "checkout.session",
      mode: "subscription",
      status: "open",
      payment_status: "unpaid",
      url: `http://${host()}/c/pay/${newId("cs")}`,
      success_url: params.success_url ?? null,
      cancel_url: params.cancel_url ?? null,
      client_reference_id: params.client_reference_id ?? null,
      customer: params.customer ?? null,
      customer_email: params.customer_email ?? null,
      metadata: params.metadata ?? {},
      subscription_data: params.subscription_data ?? {},
      price: params.price,
      subscription: null,
      expires_at: params.expires_at ?? now() + DAY,
      created: now(),
    };
    sessions.set(session.id, session);
    return session;
  }

  /** An event as Stripe sends it to a webhook endpoint. */
  function event(type: string, object: Obj, created = now()): Obj {
    return {
      id: newId("evt"),
      object: "event",
      api_version: "2026-10-28.endive",
      created,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: structuredClone(object) },
    };
  }

  /** An invoice of the subscription for [start, end]: paid, or open after a declined charge. */
  function bill(s: Obj, start: number, end: number, paid: boolean, reason: string): Obj {
    const item = s.items.data[0];
    const invoice = {
      id: newId("in"),
      object: "invoice",
      customer: s.customer,
      status: paid ? "paid" : "open",
      billing_reason: reason,
      amount_due: 1900,
      amount_paid: paid ? 1900 : 0,
      attempt_count: 1,
      parent: { type: "subscription_details", quote_details: null, subscription_details: { subscription: s.id, metadata: { ...s.metadata } } },
      lines: {
        object: "list",
        has_more: false,
        data: [
          {
            id: newId("il"),
            object: "line_item",
            period: { start, end },
            pricing: { type: "price_details", price_details: { price: item.price.id, product: `prod_${item.price.id}` }, unit_amount_decimal: "1900" },
            parent: { type: "subscription_item_details", subscription_item_details: { subscription: s.id, subscription_item: item.id, proration: false } },
          },
        ],
      },
      period_start: start,
      period_end: end,
      created: now(),
    };
    invoices.set(invoice.id, invoice);
    s.latest_invoice = invoice.id;
    return invoice;
  }

  /** A subscription to `price`, its first period paid. */
  function subscribe(customer: string, price: string, metadata: Obj, periodEnd: number): Obj {
    const subscription = {
      id: newId("sub"),
      object: "subscription",
      customer,
      status: "active",
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      metadata,
      latest_invoice: null as string | null,
      items: {
        object: "list",
        data: [
          {
            id: newId("si"),
            object: "subscription_item",
            price: { id: price, object: "price" },
            quantity: 1,
            current_period_start: now(),
            current_period_end: periodEnd,
          },
        ],
      },
      created: now(),
    };
    subscriptions.set(subscription.id, subscription);
    bill(subscription, now(), periodEnd, true, "subscription_create");
    return subscription;
  }

  function subscriptionOf(id: string): Obj {
    const s = subscriptions.get(id);
    if (!s) throw new Error(`no subscription ${id}`);
    return s;
  }

  return {
    url: `http://${host()}`,
    calls,
    sessions,
    subscriptions,
    invoices,
    event,
    /** While true, every API call answers 500 (the provider is down). */
    set down(v: boolean) {
      state.down = v;
    },

    /** The customer pays at Checkout: a customer and an active subscription with its first
     *  invoice paid exist, and the session is complete. Returns the checkout.session.completed event. */
    pay(sessionId: string, { periodEnd = now() + 30 * DAY } = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      if (session.status !== "open") throw new Error(`checkout session ${sessionId} is ${session.status}`);
      const customer = session.customer ?? newId("cus");
      const subscription = subscribe(customer, session.price, session.subscription_data.metadata ?? {}, periodEnd);
      Object.assign(session, { status: "complete", payment_status: "paid", customer, subscription: subscription.id });
      return event("checkout.session.completed", session);
    },

    /** invoice.paid for the subscription's latest invoice (sent with every paid invoice). */
    invoicePaid(subscriptionId: string) {
      const invoice = invoices.get(subscriptionOf(subscriptionId).latest_invoice);
      if (invoice?.status !== "paid") throw new Error(`the latest invoice of ${subscriptionId} is not paid`);
      return event("invoice.paid", invoice);
    },

    /** The period ends and the next is billed: charged (invoice.paid, the subscription active
     *  to the new end) or declined (invoice.payment_failed, past_due; Stripe moves the period's
     *  end all the same). Returns the events in the order Stripe sends them. */
    renew(subscriptionId: string, { paid, periodEnd }: { paid: boolean; periodEnd: number }) {
      const s = subscriptionOf(subscriptionId);
      const start = s.items.data[0].current_period_end;
      s.items.data[0].current_period_start = start;
      s.items.data[0].current_period_end = periodEnd;
      const invoice = bill(s, start, periodEnd, paid, "subscription_cycle");
      s.status = paid ? "active" : "past_due";
      return [event(paid ? "invoice.paid" : "invoice.payment_failed", invoice), event("customer.subscription.updated", s)] as [Obj, Obj];
    },

    /** The subscription changed at Stripe (the period ended, dunning gave up...): the new state
     *  and the event Stripe sends about it. */
    change(
      subscriptionId: string,
      patch: { status?: string; cancel_at_period_end?: boolean; periodEnd?: number },
      type = "customer.subscription.updated",
      created?: number,
    ) {
      const s = subscriptionOf(subscriptionId);
      if (patch.status) s.status = patch.status;
      if (patch.status === "canceled") Object.assign(s, { canceled_at: now(), ended_at: now() });
      if (patch.cancel_at_period_end !== undefined) s.cancel_at_period_end = patch.cancel_at_period_end;
      if (patch.periodEnd !== undefined) s.items.data[0].current_period_end = patch.periodEnd;
      return event(type, s, created);
    },

    /** The session's time ran out at Stripe: checkout.session.expired. */
    expire(sessionId: string) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      session.status = "expired";
      return event("checkout.session.expired", session);
    },

    /**
     * Something bought at Stripe without this installation: a Payment Link (which takes
     * `client_reference_id` from its URL), a Dashboard subscription on a known customer, another
     * app on the same account. Paid; returns the events Stripe sends about it.
     */
    elsewhere({
      price,
      clientReferenceId = null,
      customer = newId("cus"),
      metadata = {},
      periodEnd = now() + 30 * DAY,
    }: {
      price: string;
      clientReferenceId?: string | null;
      customer?: string;
      metadata?: Obj;
      periodEnd?: number;
    }) {
      if (!opts.prices.includes(price)) throw new Error(`unknown price ${price}`);
      const session = openSession({ price, client_reference_id: clientReferenceId, customer, metadata, subscription_data: { metadata } });
      const subscription = subscribe(customer, price, metadata, periodEnd);
      Object.assign(session, { status: "complete", payment_status: "paid", subscription: subscription.id });
      return {
        subscription,
        events: [
          event("customer.subscription.created", subscription),
          event("invoice.paid", invoices.get(subscription.latest_invoice!)!),
          event("checkout.session.completed", session),
        ],
      };
    },

    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type StripeStandin = Awaited<ReturnType<typeof startStripeStandin>>;
