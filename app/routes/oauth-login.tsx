// Starts a GitHub or Google sign-in: the strategy stores the state and redirects away.
import { redirect } from "react-router";
import type { Route } from "./+types/oauth-login";
import { AuthFailure, authenticatorFor } from "#app/.server/auth.ts";
import { isProvider } from "#app/lib/providers.ts";
import { getWeb } from "#app/.server/guards.ts";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isProvider(params.provider)) throw new Response("Not found", { status: 404 });
  const web = getWeb(context);
  try {
    await authenticatorFor(web).authenticate(params.provider, request);
  } catch (e) {
    if (e instanceof Response) throw e;
    web.session.set("flash", e instanceof AuthFailure ? e.message : `Failed to initiate ${params.provider} login`);
    web.touch();
  }
  throw redirect("/login");
}
