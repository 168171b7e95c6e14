// /billing: the signed-in user's plan, this month's use, and (with payments enabled) the Stripe
// subscription: when the paid period ends, cancel at its end or keep it. Plain forms with a
// hidden `intent`, so it works without JavaScript; the plan itself changes only when Stripe's
// webhook says so (server/core/billing.ts), which is why the page after Checkout says "as soon
// as Stripe confirms".
import { data, Form, redirect, useActionData } from "react-router";
import { Link } from "#app/components/link.tsx";
import { z } from "zod";
import type { Route } from "./+types/billing";
import { requireUser } from "#app/.server/guards.ts";
import { formatDate } from "#app/lib/player.ts";
import { FREE_MEDIUM_PER_MONTH, PAYMENTS_DISABLED } from "#shared/plans.ts";

export function meta() {
  return [{ title: "billing | faultline" }];
}

const CHECKOUT_NOTES = {
  success: "Thank you! Pro starts as soon as Stripe confirms the payment, usually within seconds: reload this page if it still says Free.",
  cancelled: "Checkout was cancelled: nothing was charged.",
} as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { api } = requireUser(context, request);
  const [plan, billing] = await Promise.all([api.getPlan(), api.getBilling()]);
  if (!plan.ok) throw data(plan.detail || "Your plan could not be read.", { status: plan.status });
  const checkout = new URL(request.url).searchParams.get("checkout");
  return {
    plan: plan.data,
    billing: billing.ok ? billing.data : { enabled: false, subscription: null },
    note: checkout === "success" || checkout === "cancelled" ? CHECKOUT_NOTES[checkout] : null,
  };
}

const intentSchema = z.enum(["checkout", "cancel", "resume"]);

export async function action({ request, context }: Route.ActionArgs) {
  const { api } = requireUser(context, request);
  const intent = intentSchema.safeParse((await request.formData()).get("intent"));
  if (!intent.success) return data({ error: "Unknown billing form", ok: null }, { status: 400 });
  if (intent.data === "checkout") {
    const res = await api.startCheckout();
    if (res.ok) throw redirect(res.data.url);
    return data({ error: res.status === 503 ? PAYMENTS_DISABLED : res.detail, ok: null }, { status: res.status });
  }
  const cancel = intent.data === "cancel";
  const res = await api.setCancelAtPeriodEnd({ body: { cancel_at_period_end: cancel } });
  if (!res.ok) return data({ error: res.detail || "The subscription could not be changed. Please try again.", ok: null }, { status: res.status });
  const end = res.data.subscription?.current_period_end;
  const until = end ? formatDate(Date.parse(end)) : "the end of the period";
  return { error: null, ok: cancel ? `Cancelled: Pro stays until ${until} and will not renew.` : `Pro renews on ${until}.` };
}

export default function Billing({ loaderData }: Route.ComponentProps) {
  const { plan, billing, note } = loaderData;
  const outcome = useActionData<typeof action>();
  const sub = billing.subscription;
  const paying = sub && (sub.status === "active" || sub.status === "trialing");
  const periodEnd = sub?.current_period_end ? formatDate(Date.parse(sub.current_period_end)) : null;

  return (
    <section className="mx-auto max-w-2xl space-y-6">
      <h1 className="prompt text-2xl font-bold">cat ~/billing</h1>
      {note ? (
        <p className="alert-ok" role="status" data-testid="checkout-note">
          {note}
        </p>
      ) : null}
      {outcome?.error ? (
        <p className="alert-error" role="alert" data-testid="billing-error">
          {outcome.error}
        </p>
      ) : null}
      {outcome?.ok ? (
        <p className="alert-ok" role="status" data-testid="billing-ok">
          {outcome.ok}
        </p>
      ) : null}

      <div className="panel space-y-2" data-testid="billing-plan">
        <h2 className="text-xl font-bold">
          Plan: <span data-testid="billing-plan-name">{plan.plan === "pro" ? "Pro" : "Free"}</span>
        </h2>
        {plan.plan === "pro" ? (
          <p className="text-sm" data-testid="billing-plan-until">
            {plan.plan_until ? `Pro until ${formatDate(Date.parse(plan.plan_until))} (UTC).` : "Pro, with no end date."}
          </p>
        ) : (
          <p className="text-sm" data-testid="billing-usage">
            Medium challenges started this month: {plan.usage.medium_started_this_month} of {FREE_MEDIUM_PER_MONTH} (the count starts again on{" "}
            {formatDate(Date.parse(plan.month_resets_at))}). Easy challenges have no limit; hard and expert need Pro.
          </p>
        )}
        <p className="text-sm">Deployments at once: {plan.limits.concurrent_deployments}.</p>
      </div>

      {!billing.enabled ? (
        <p className="panel text-sm" data-testid="payments-disabled">
          {PAYMENTS_DISABLED}
        </p>
      ) : (
        <div className="panel space-y-3" data-testid="billing-subscription">
          <h2 className="text-xl font-bold">Subscription</h2>
          {paying ? (
            <>
              <p className="text-sm">
                {sub.cancel_at_period_end
                  ? `Cancelled: Pro stays until ${periodEnd ?? "the end of the paid period"} and will not renew.`
                  : `Active: renews on ${periodEnd ?? "the end of the period"}.`}
              </p>
              <Form method="post">
                <input type="hidden" name="intent" value={sub.cancel_at_period_end ? "resume" : "cancel"} />
                <button type="submit" className={sub.cancel_at_period_end ? "btn-primary" : "btn-ghost"} data-testid="billing-toggle-cancel">
                  {sub.cancel_at_period_end ? "Keep Pro (renew)" : "Cancel at period end"}
                </button>
              </Form>
            </>
          ) : (
            <>
              {sub ? <p className="text-sm">Your last subscription is {sub.status.replace(/_/g, " ")}.</p> : null}
              {plan.plan === "free" ? (
                // reloadDocument: the action answers with a redirect to Stripe's own page.
                <Form method="post" reloadDocument>
                  <input type="hidden" name="intent" value="checkout" />
                  <button type="submit" className="btn-primary" data-testid="billing-upgrade">
                    Upgrade to Pro ($19/month)
                  </button>
                </Form>
              ) : (
                <p className="text-sm">Your Pro was granted by an administrator: there is nothing to pay.</p>
              )}
            </>
          )}
        </div>
      )}
      <p className="text-sm">
        What each plan includes: <Link to="/pricing">pricing</Link>. Questions: <Link to="/faq?category=billing">FAQ</Link>.
      </p>
    </section>
  );
}
