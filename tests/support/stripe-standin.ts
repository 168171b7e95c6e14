// A stand-in for the few endpoints of Stripe's HTTP API that faultline calls, as a real HTTP
// server on loopback (plain node:http), so tests run the official `stripe` client end to end:
// its request encoding, authentication header and error handling. Point the platform at it with
// STRIPE_API_URL=<url>.
//
//   POST /v1/checkout/sessions      mode=subscription, one line item of a known price, success and
//                                   cancel URLs; answers a session with a url to "pay" at.
//   GET  /v1/subscriptions/:id      the subscription as it stands.
//   POST /v1/subscriptions/:id      cancel_at_period_end=true|false.
//
// Like Stripe it wants `Authorization: Bearer <the secret key>` (401 otherwise) and answers
// errors as {"error": {"type", "message"}}. What a customer does at Stripe (paying, the period
// ending) is done by the test through `pay` and `events`, which build the objects and the events
// Stripe would send; the test signs them with stripe.webhooks.generateTestHeaderString.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type Obj = Record<string, any>;

export interface StandinOptions {
  secretKey: string;
  /** The price ids Checkout accepts. */
  prices: string[];
}

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
  /** Every API call received, for assertions ("the platform asked Stripe to cancel"). */
  const calls: { method: string; path: string; params: Obj }[] = [];

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, message: string, code?: string) =>
    send(res, status, { error: { type: "invalid_request_error", message, ...(code ? { code } : {}) } });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? "/", "http://standin");
    if (req.headers.authorization !== `Bearer ${opts.secretKey}`) return fail(res, 401, "Invalid API Key provided");
    const params = req.method === "GET" ? Object.fromEntries(url.searchParams) : parseStripeForm(raw);
    calls.push({ method: req.method ?? "", path: url.pathname, params });

    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      if (params.mode !== "subscription") return fail(res, 400, "This stand-in only knows mode=subscription");
      const items = (params.line_items ?? []) as Obj[];
      if (items.length !== 1 || !opts.prices.includes(items[0]!.price)) return fail(res, 400, `No such price: '${items[0]?.price}'`, "resource_missing");
      if (!params.success_url || !params.cancel_url) return fail(res, 400, "success_url and cancel_url are required");
      const session = {
        id: newId("cs_test"),
        object: "checkout.session",
        mode: "subscription",
        status: "open",
        payment_status: "unpaid",
        url: `http://${host()}/c/pay/${newId("cs")}`,
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        client_reference_id: params.client_reference_id ?? null,
        customer: params.customer ?? null,
        customer_email: params.customer_email ?? null,
        metadata: params.metadata ?? {},
        subscription_data: params.subscription_data ?? {},
        price: items[0]!.price,
        subscription: null,
        created: now(),
      };
      sessions.set(session.id, session);
      return send(res, 200, session);
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
    if (sub) {
      const s = subscriptions.get(decodeURIComponent(sub[1]!));
      if (!s) return fail(res, 404, `No such subscription: '${sub[1]}'`, "resource_missing");
      if (req.method === "GET") return send(res, 200, s);
      if (req.method === "POST") {
        if (params.cancel_at_period_end !== undefined) {
          if (s.status === "canceled") return fail(res, 400, "A canceled subscription can only update its cancellation_details and metadata.");
          s.cancel_at_period_end = params.cancel_at_period_end === "true";
          s.cancel_at = s.cancel_at_period_end ? s.items.data[0].current_period_end : null;
        }
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

  return {
    url: `http://${host()}`,
    calls,
    sessions,
    subscriptions,
    event,

    /** The customer pays at Checkout: a customer and an active subscription exist, and the
     *  session is complete. Returns the checkout.session.completed event. */
    pay(sessionId: string, { periodEnd = now() + 30 * 24 * 3600 } = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      const customer = session.customer ?? newId("cus");
      const subscription = {
        id: newId("sub"),
        object: "subscription",
        customer,
        status: "active",
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        metadata: session.subscription_data.metadata ?? {},
        items: {
          object: "list",
          data: [{ id: newId("si"), object: "subscription_item", price: { id: session.price }, quantity: 1, current_period_start: now(), current_period_end: periodEnd }],
        },
        created: now(),
      };
      subscriptions.set(subscription.id, subscription);
      Object.assign(session, { status: "complete", payment_status: "paid", customer, subscription: subscription.id });
      return event("checkout.session.completed", session);
    },

    /** The subscription changed at Stripe (a renewal, the period ended...): the new state and
     *  the event Stripe sends about it. */
    change(subscriptionId: string, patch: { status?: string; cancel_at_period_end?: boolean; periodEnd?: number }, type = "customer.subscription.updated", created?: number) {
      const s = subscriptions.get(subscriptionId);
      if (!s) throw new Error(`no subscription ${subscriptionId}`);
      if (patch.status) s.status = patch.status;
      if (patch.cancel_at_period_end !== undefined) s.cancel_at_period_end = patch.cancel_at_period_end;
      if (patch.periodEnd !== undefined) s.items.data[0].current_period_end = patch.periodEnd;
      return event(type, s, created);
    },

    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type StripeStandin = Awaited<ReturnType<typeof startStripeStandin>>;
