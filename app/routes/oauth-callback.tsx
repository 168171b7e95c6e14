// The provider sends the browser back here. The page first shows that it is processing; with
// JavaScript it then posts to this route's action, which checks the state against the one stored
// at start, has the API exchange the code and signs the user in, and the page says how it went
// and moves on (to /profile 2 s after success, 3 s after an error).
// Without JavaScript the processing page reloads itself at once with `nojs=1`, and the loader
// does the same work and redirects straight on success (an error page moves on after 3 s).
import { useEffect } from "react";
import { redirect, useFetcher, useLocation, useNavigate } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/oauth-callback";
import { AUTH_FAILED, AuthFailure, authenticatorFor, completeLogin } from "#app/.server/auth.ts";
import type { Web } from "#app/.server/context.ts";
import { isProvider, providerLabel, type Provider } from "#app/lib/providers.ts";
import { getWeb, safeRedirect } from "#app/.server/guards.ts";

export function meta() {
  return [{ title: "signing in | faultline" }];
}

const SUCCESS_DELAY = 2;
const ERROR_DELAY = 3;
/** A guard against processing a callback twice (a double effect, a double click). */
const GUARD_RESET_MS = 5000;

type Outcome = { status: "success"; next: string; delay: number } | { status: "error"; message: string; next: string; delay: number };
type Processing = { status: "processing"; noScriptUrl: string };

function providerOf(params: { provider?: string }): Provider {
  if (!isProvider(params.provider)) throw new Response("Not found", { status: 404 });
  return params.provider;
}

/** The outcome already reached for this callback (a reload, the back button), if any. */
function remembered(web: Web, state: string): Outcome | null {
  const done = web.session.get("oauthDone");
  if (!done || !state || done.state !== state) return null;
  return done.ok
    ? { status: "success", next: "/profile", delay: SUCCESS_DELAY }
    : { status: "error", message: done.message ?? AUTH_FAILED, next: "/profile", delay: ERROR_DELAY };
}

/** Checks the state, exchanges the code through the API, signs in; never runs twice for one state. */
async function processCallback(web: Web, provider: Provider, request: Request): Promise<Outcome> {
  const state = new URL(request.url).searchParams.get("state") ?? "";
  const again = remembered(web, state);
  if (again) return again;
  const redirectTo = safeRedirect(web.session.get("oauth")?.redirectTo);
  try {
    const result = await authenticatorFor(web).authenticate(provider, request);
    const next = completeLogin(web, result, redirectTo);
    web.session.set("oauthDone", { state, ok: true });
    return { status: "success", next, delay: SUCCESS_DELAY };
  } catch (e) {
    if (e instanceof Response) throw e;
    const message = e instanceof AuthFailure ? e.message : AUTH_FAILED;
    web.session.set("oauthDone", { state, ok: false, message });
    web.touch();
    return { status: "error", message, next: "/profile", delay: ERROR_DELAY };
  }
}

export async function loader({ request, params, context }: Route.LoaderArgs): Promise<(Outcome | Processing) & { provider: string }> {
  const provider = providerOf(params);
  const web = getWeb(context);
  const url = new URL(request.url);
  const done = remembered(web, url.searchParams.get("state") ?? "");
  if (done) return { provider, ...done };
  if (url.searchParams.get("nojs") !== "1") {
    url.searchParams.set("nojs", "1");
    return { provider, status: "processing", noScriptUrl: `${url.pathname}${url.search}` };
  }
  const outcome = await processCallback(web, provider, request);
  if (outcome.status === "success") throw redirect(outcome.next);
  return { provider, ...outcome };
}

export async function action({ request, params, context }: Route.ActionArgs): Promise<Outcome & { provider: string }> {
  const provider = providerOf(params);
  return { provider, ...(await processCallback(getWeb(context), provider, request)) };
}

const started = new Set<string>();

export default function OAuthCallback({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const fetcher = useFetcher<typeof action>();
  const view = fetcher.data ?? loaderData;
  const processing = view.status === "processing";

  // Processing: post once to the action (the guard lets a second attempt through after 5 s).
  useEffect(() => {
    if (!processing || fetcher.state !== "idle") return;
    const key = location.pathname + location.search;
    if (started.has(key)) return;
    started.add(key);
    setTimeout(() => started.delete(key), GUARD_RESET_MS);
    void fetcher.submit(null, { method: "post", action: key });
  }, [processing, fetcher, location.pathname, location.search]);

  const next = view.status === "processing" ? null : view.next;
  const delay = view.status === "processing" ? 0 : view.delay;
  useEffect(() => {
    if (next === null) return;
    const t = setTimeout(() => navigate(next), delay * 1000);
    return () => clearTimeout(t);
  }, [navigate, next, delay]);

  const label = isProvider(loaderData.provider) ? providerLabel(loaderData.provider) : loaderData.provider;
  return (
    <section className="panel mx-auto max-w-xl">
      {view.status === "processing" ? (
        <div data-testid="oauth-processing" aria-live="polite">
          {/* Without JavaScript the browser follows this at once; the loader then does the work. */}
          <noscript>
            <meta httpEquiv="refresh" content={`0;url=${view.noScriptUrl}`} />
          </noscript>
          <h1 className="prompt text-2xl font-bold">Processing authentication...</h1>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">Completing your {label} sign-in.</p>
        </div>
      ) : view.status === "success" ? (
        <div data-testid="oauth-success">
          {/* Without JavaScript the browser follows this refresh. */}
          <noscript>
            <meta httpEquiv="refresh" content={`${view.delay};url=${view.next}`} />
          </noscript>
          <h1 className="text-2xl font-bold text-emerald-700 dark:text-term-green">Signed in with {label}</h1>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">Taking you to your profile...</p>
        </div>
      ) : (
        <div data-testid="oauth-error">
          <noscript>
            <meta httpEquiv="refresh" content={`${view.delay};url=${view.next}`} />
          </noscript>
          <h1 className="text-2xl font-bold text-red-700 dark:text-term-red">Authentication failed</h1>
          <p className="mt-2" role="alert">
            {view.message}
          </p>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">Redirecting in {view.delay} seconds...</p>
          <Link to="/login" className="btn-ghost mt-6">
            Return to Login
          </Link>
        </div>
      )}
    </section>
  );
}
