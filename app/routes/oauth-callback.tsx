// The provider sends the browser back here. The loader checks the state against the one stored
// at start, has the API exchange the code, and signs the user in; the page then says so and
// moves on to /profile (2 s after success, 3 s after an error), with or without JavaScript.
import { useEffect } from "react";
import { Link, useNavigate } from "react-router";
import type { Route } from "./+types/oauth-callback";
import { AUTH_FAILED, AuthFailure, authenticatorFor, completeLogin } from "../.server/auth.ts";
import { isProvider, providerLabel } from "../lib/providers.ts";
import { getWeb, safeRedirect } from "../.server/guards.ts";

export function meta() {
  return [{ title: "signing in | faultline" }];
}

type Outcome = { status: "success"; next: string; delay: number } | { status: "error"; message: string; next: string; delay: number };

export async function loader({ request, params, context }: Route.LoaderArgs): Promise<Outcome & { provider: string }> {
  if (!isProvider(params.provider)) throw new Response("Not found", { status: 404 });
  const provider = params.provider;
  const web = getWeb(context);
  const state = new URL(request.url).searchParams.get("state") ?? "";
  const done = web.session.get("oauthDone");
  // A second load of the same callback (reload, back button) does not process the code again.
  if (done && state && done.state === state) {
    return done.ok
      ? { provider, status: "success", next: "/profile", delay: 2 }
      : { provider, status: "error", message: done.message ?? AUTH_FAILED, next: "/profile", delay: 3 };
  }
  const redirectTo = safeRedirect(web.session.get("oauth")?.redirectTo);
  try {
    const result = await authenticatorFor(web).authenticate(provider, request);
    const next = completeLogin(web, result, redirectTo);
    web.session.set("oauthDone", { state, ok: true });
    return { provider, status: "success", next, delay: 2 };
  } catch (e) {
    if (e instanceof Response) throw e;
    const message = e instanceof AuthFailure ? e.message : AUTH_FAILED;
    web.session.set("oauthDone", { state, ok: false, message });
    web.touch();
    return { provider, status: "error", message, next: "/profile", delay: 3 };
  }
}

export default function OAuthCallback({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const { next, delay } = loaderData;
  useEffect(() => {
    const t = setTimeout(() => navigate(next), delay * 1000);
    return () => clearTimeout(t);
  }, [navigate, next, delay]);
  const label = isProvider(loaderData.provider) ? providerLabel(loaderData.provider) : loaderData.provider;
  return (
    <section className="panel mx-auto max-w-xl">
      {/* Without JavaScript the browser follows this refresh. */}
      <noscript>
        <meta httpEquiv="refresh" content={`${delay};url=${next}`} />
      </noscript>
      {loaderData.status === "success" ? (
        <div data-testid="oauth-success">
          <h1 className="text-2xl font-bold text-emerald-700 dark:text-term-green">Signed in with {label}</h1>
          <p className="mt-2 text-sm text-zinc-500">Taking you to your profile...</p>
        </div>
      ) : (
        <div data-testid="oauth-error">
          <h1 className="text-2xl font-bold text-red-700 dark:text-term-red">Authentication failed</h1>
          <p className="mt-2" role="alert">{loaderData.message}</p>
          <p className="mt-2 text-sm text-zinc-500">Redirecting in {delay} seconds...</p>
          <Link to="/login" className="btn-ghost mt-6">
            Return to Login
          </Link>
        </div>
      )}
    </section>
  );
}
