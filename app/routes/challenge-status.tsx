// GET /challenges/:id/status: the per-challenge deployment as JSON for the page's fallback
// polling. The browser asks the web with its sign-in cookie; it never holds an API token (the
// live channel takes the same cookie) nor the gateway's API key.
import { data } from "react-router";
import type { Route } from "./+types/challenge-status";
import { getWeb } from "../.server/guards.ts";

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ params, context }: Route.LoaderArgs) {
  const web = getWeb(context);
  if (!web.user || !web.token) throw data({ detail: "Authentication required" }, { status: 401, headers: NO_STORE });
  const res = await web.api.as(web.token).challengeSession(params.id);
  if (!res.ok) throw data({ detail: res.detail || "Failed to load challenge" }, { status: res.status, headers: NO_STORE });
  return data({ session: res.data }, { headers: NO_STORE });
}
