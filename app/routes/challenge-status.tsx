// GET /challenges/:id/status: the per-challenge deployment as JSON for the page's fallback
// polling. The browser asks the web with its sign-in cookie; it never holds an API token (the
// live channel takes the same cookie) nor the gateway's API key. The answer's key `session`
// keeps the API's URL word (docs/api.md, "Live channel"); app/hooks/use-deployment-live.ts reads it.
import { data } from "react-router";
import type { Route } from "./+types/challenge-status";
import { getWeb } from "#app/.server/guards.ts";
import { loadErrorText, TEXT } from "#app/features/challenge/index.ts";

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ params, context }: Route.LoaderArgs) {
  const web = getWeb(context);
  if (!web.user || !web.token) throw data({ detail: TEXT.authRequired }, { status: 401, headers: NO_STORE });
  const res = await web.api.as(web.token).getChallengeDeployment({ params: { id: params.id } });
  if (!res.ok) throw data({ detail: loadErrorText(res.detail) }, { status: res.status, headers: NO_STORE });
  return data({ session: res.data }, { headers: NO_STORE });
}
