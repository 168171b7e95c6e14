// The plan dialog, as a page of its own so it works without JavaScript.
import { Link } from "react-router";

export function meta() {
  return [{ title: "pricing | faultline" }];
}

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
    features: [
      "All difficulty levels",
      "Expert exclusives",
      "Priority support",
      "Multiple concurrent sessions",
      "Advanced analytics",
      "Early access",
    ],
    missing: [],
  },
];

export default function Pricing() {
  return (
    <section role="dialog" aria-labelledby="pricing-title" className="mx-auto max-w-4xl">
      <h1 id="pricing-title" className="prompt text-2xl font-bold">
        cat /etc/plans
      </h1>
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
                <li key={f} className="text-zinc-500">
                  ✗ {f}
                </li>
              ))}
            </ul>
            <p className="mt-4 text-xs text-zinc-500">
              {p.name === "Pro" ? "Payments are not open yet: everyone is on Free for now." : "Your current plan."}
            </p>
          </div>
        ))}
      </div>
      <p className="mt-6 text-sm">
        Questions? Read the <Link to="/faq">FAQ</Link>.
      </p>
    </section>
  );
}
