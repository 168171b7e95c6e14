// Freshness of the player's reads (the leaderboard, the challenge list and a user's challenges
// count as fresh for 5 minutes, as the API's own answers do: FRESH_SECONDS in
// server/api/player-routes.ts). Only anonymous visitors get a cacheable page, kept
// in their own browser (private) and tied to their cookie (Vary): a signed-in user never sees a
// stale copy of something they just changed, such as their own solve on the leaderboard.
import type { Web } from "./context.ts";

export const FRESH_SECONDS = 5 * 60;

export function freshnessHeaders(web: Pick<Web, "user">): HeadersInit {
  return web.user ? { "Cache-Control": "private, no-cache", Vary: "Cookie" } : { "Cache-Control": `private, max-age=${FRESH_SECONDS}`, Vary: "Cookie" };
}
