// The plan dialog as a page of its own, so it works without JavaScript (with it, the nav's
// pricing/ button opens the same content over the current page: components/pricing/). The
// upgrade posts here: with payments enabled it starts Stripe Checkout (a signed-in user goes to
// Stripe's page, a visitor signs in first); without, the page says so and nothing changes.
import { data, redirect, useActionData } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/pricing";
import { getWeb } from "#app/.server/guards.ts";
import { PlanCards, type PricingData } from "#app/components/pricing/plan-cards.tsx";
import { PAYMENTS_DISABLED } from "#shared/plans.ts";

export function meta() {
  return [{ title: "pricing | faultline" }];
}

export async function loader({ context }: Route.LoaderArgs): Promise<PricingData> {
  const web = getWeb(context);
  const config = await web.api.getBillingConfig();
  return {
    enabled: config.ok && config.data.enabled,
    signedIn: Boolean(web.user),
    plan: web.user ? web.user.plan : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const web = getWeb(context);
  const form = await request.formData();
  if (form.get("intent") !== "upgrade") throw data("Unknown pricing form", { status: 400 });
  const config = await web.api.getBillingConfig();
  if (!(config.ok && config.data.enabled)) return data({ notice: PAYMENTS_DISABLED }, { status: 503 });
  if (!web.token) throw redirect("/login?redirectTo=%2Fpricing");
  const res = await web.api.as(web.token).startCheckout();
  if (res.ok) throw redirect(res.data.url);
  return data({ notice: res.status === 503 ? PAYMENTS_DISABLED : res.detail || "The upgrade could not be started. Please try again." }, { status: res.status });
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const notice = useActionData<typeof action>()?.notice;
  return (
    <section role="dialog" aria-labelledby="pricing-title" className="mx-auto max-w-4xl">
      <h1 id="pricing-title" className="prompt text-2xl font-bold">
        cat /etc/plans
      </h1>
      <PlanCards data={loaderData} notice={notice} />
      <p className="mt-6 text-sm">
        Questions? Read the <Link to="/faq">FAQ</Link>.
      </p>
    </section>
  );
}
