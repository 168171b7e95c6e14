// The plan dialog's content, shown by the /pricing page (without JavaScript) and by the pricing
// dialog over the current page (with it): the two plans and, under Pro, the upgrade.
// The texts of the plans are PLANS below; what the server enforces is shared/plans.ts.
import { Form } from "react-router";
import { Link } from "#app/components/link.tsx";
import { PAYMENTS_DISABLED } from "#shared/plans.ts";

export const PLANS = [
  {
    name: "Free",
    price: "$0",
    features: ["All easy challenges", "3 medium challenges per month", "Basic leaderboard", "Community support"],
    missing: ["No hard or expert challenges"],
  },
  {
    name: "Pro",
    price: "$19/month",
    features: ["All difficulty levels", "Expert exclusives", "Priority support", "Multiple concurrent sessions", "Advanced analytics", "Early access"],
    missing: [],
  },
];

/** What the pricing loader tells the cards. */
export interface PricingData {
  /** Payments are enabled on this installation (Stripe configured). */
  enabled: boolean;
  signedIn: boolean;
  /** The plan in force of the signed-in user. */
  plan: "free" | "pro" | null;
}

export type UpgradeState = "idle" | "processing" | "done";

/**
 * The plan cards. The upgrade is a form posted to /pricing (the route's action starts Stripe
 * Checkout, or says that payments are not enabled); `onPretend`, given by the dialog with
 * JavaScript, replaces it with the pretend flow (pricing-dialog.tsx) when payments are not enabled.
 */
export function PlanCards({
  data,
  state = "idle",
  onPretend,
  notice,
}: {
  data: PricingData;
  state?: UpgradeState;
  onPretend?: () => void;
  notice?: string | null;
}) {
  const isPro = data.plan === "pro";
  return (
    <>
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        {PLANS.map((p) => (
          <div key={p.name} className="panel" data-testid={`plan-${p.name.toLowerCase()}`}>
            <h2 className="text-xl font-bold">{p.name}</h2>
            <p className="mt-1 text-3xl font-bold text-emerald-700 dark:text-term-green">{p.price}</p>
            <ul className="mt-4 space-y-1 text-sm">
              {p.features.map((f) => (
                <li key={f}>✓ {f}</li>
              ))}
              {p.missing.map((f) => (
                <li key={f} className="text-zinc-600 dark:text-zinc-400">
                  ✗ {f}
                </li>
              ))}
            </ul>
            {p.name === "Free" ? (
              data.signedIn && !isPro ? (
                <p className="mt-4 text-xs text-zinc-600 dark:text-zinc-400">Your current plan.</p>
              ) : null
            ) : isPro ? (
              <p className="mt-4 text-xs text-zinc-600 dark:text-zinc-400">
                Your current plan. <Link to="/billing">Manage billing</Link>
              </p>
            ) : (
              <Upgrade data={data} state={state} onPretend={onPretend} />
            )}
          </div>
        ))}
      </div>
      {notice ? (
        <p className="alert-warn mt-4" role="status" data-testid="pricing-notice">
          {notice}
        </p>
      ) : null}
      {!data.enabled ? (
        <p className="mt-4 text-sm" data-testid="payments-disabled">
          {PAYMENTS_DISABLED}
        </p>
      ) : null}
    </>
  );
}

function Upgrade({ data, state, onPretend }: { data: PricingData; state: UpgradeState; onPretend?: () => void }) {
  if (state === "processing") {
    return (
      <p className="mt-4 text-sm" role="status" data-testid="upgrade-processing">
        Processing<span className="animate-pulse">...</span>
      </p>
    );
  }
  if (data.enabled && !data.signedIn) {
    return (
      <p className="mt-4 text-sm">
        <Link to="/login?redirectTo=%2Fpricing">Sign in</Link> to upgrade.
      </p>
    );
  }
  const button = (
    <button
      type="submit"
      className="btn-primary mt-4 w-full"
      data-testid="upgrade-button"
      onClick={
        !data.enabled && onPretend
          ? (e) => {
              e.preventDefault();
              onPretend();
            }
          : undefined
      }
    >
      Upgrade to Pro
    </button>
  );
  return (
    // reloadDocument: the action answers with a redirect to Stripe's own page.
    <Form method="post" action="/pricing" reloadDocument>
      <input type="hidden" name="intent" value="upgrade" />
      {button}
    </Form>
  );
}
