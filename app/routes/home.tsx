import { Link } from "react-router";
import type { Route } from "./+types/home";
import { getWeb } from "../.server/guards.ts";

export function loader({ context }: Route.LoaderArgs) {
  return { signedIn: Boolean(getWeb(context).user) };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-10">
      <section className="py-10">
        <p className="text-sm text-zinc-500">root@faultline:~#</p>
        <h1 className="mt-2 text-4xl font-bold leading-tight sm:text-5xl">
          Something is broken.
          <br />
          <span className="text-emerald-600 dark:text-term-green">You have 30 minutes.</span>
        </h1>
        <p className="mt-4 max-w-2xl text-zinc-600 dark:text-zinc-400">
          Start a real, isolated Linux environment with a fault in it, reach it with plain <code>ssh</code>, fix it, and get
          graded by a check you cannot fake. Practise Linux, networking, storage, security and Kubernetes troubleshooting.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link to="/challenges" className="btn-primary">
            ./start --challenge
          </Link>
          {!loaderData.signedIn ? (
            <Link to="/register" className="btn-ghost">
              create an account
            </Link>
          ) : null}
        </div>
      </section>
      <section className="grid gap-4 sm:grid-cols-3">
        {[
          ["1. pick", "Choose a broken-system challenge from the catalogue."],
          ["2. ssh in", "Your own environment is ready in about a second."],
          ["3. fix & submit", "Fix the fault, explain it, and get graded automatically."],
        ].map(([t, d]) => (
          <div key={t} className="panel">
            <h2 className="font-bold text-emerald-700 dark:text-term-green">{t}</h2>
            <p className="mt-2 text-sm">{d}</p>
          </div>
        ))}
      </section>
    </div>
  );
}
