import { useLocation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/register-success";
import { getWeb } from "#app/.server/guards.ts";

export function meta() {
  return [{ title: "check your inbox | faultline" }];
}

export async function loader({ context }: Route.LoaderArgs) {
  const web = getWeb(context);
  return { email: web.session.get("registeredEmail") ?? null };
}

export default function RegisterSuccess({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  const email = (location.state as { email?: string } | null)?.email ?? loaderData.email ?? "your email";
  return (
    <section className="panel mx-auto max-w-xl">
      <h1 className="prompt text-2xl font-bold">registration complete</h1>
      <p className="mt-4">
        We sent a verification link to <strong data-testid="registered-email">{email}</strong>.
      </p>
      <p className="mt-2 text-sm text-zinc-500">The link expires in 24 hours. If it does not arrive, check your spam folder.</p>
      <Link to="/login" className="btn-ghost mt-6">
        I'll verify later
      </Link>
    </section>
  );
}
