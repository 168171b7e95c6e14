// /verify-email?token=: the loader verifies, so the page works without JavaScript; the
// loading state is what a person sees while that request is on its way.
import { useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/verify-email";
import { getWeb } from "#app/.server/guards.ts";

export function meta() {
  return [{ title: "verify e-mail | faultline" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (!token) return { ok: false };
  const res = await getWeb(context).api.verifyEmail({ body: { token } });
  return { ok: res.ok };
}

export default function VerifyEmail({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (navigation.state === "loading") {
    return (
      <section className="panel mx-auto max-w-xl" data-testid="verify-loading">
        <p className="prompt">verifying your e-mail...</p>
      </section>
    );
  }
  if (loaderData.ok) {
    return (
      <section className="panel mx-auto max-w-xl" data-testid="verify-success">
        <h1 className="text-2xl font-bold text-emerald-700 dark:text-term-green">Email Verified Successfully!</h1>
        <p className="mt-2 text-sm text-zinc-500">Your account can now start challenges.</p>
        <Link to="/login" className="btn-primary mt-6">
          Continue to Login
        </Link>
      </section>
    );
  }
  return (
    <section className="panel mx-auto max-w-xl" data-testid="verify-failure">
      <h1 className="text-2xl font-bold text-red-700 dark:text-term-red">Verification Failed</h1>
      <p className="mt-2">The verification link is invalid or has expired.</p>
      <div className="mt-6 flex gap-3">
        <a
          href=""
          className="btn-ghost"
          onClick={(e) => {
            e.preventDefault();
            location.reload();
          }}
        >
          Try Again
        </a>
        <Link to="/register" className="btn-primary">
          Back to Registration
        </Link>
      </div>
    </section>
  );
}
