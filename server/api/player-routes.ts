// The player's read side of the API: catalogue, leaderboard, solved challenges, activity, home
// figures. Transport only: validate the query, call one service. Registered last, after the
// deployment routes, so "/challenges/active-session" and "/challenges/:id/..." win over ":id".
import { challengeIdParam } from "#shared/contract/inputs.ts";
import { operations } from "#shared/contract/operations.ts";
import type { Catalogue } from "#server/core/catalogue.ts";
import { notFound, unauthorized } from "#server/core/errors.ts";
import type { PublicCache } from "#server/core/public-cache.ts";
import { periodStart, type Scoring } from "#server/core/scoring.ts";
import type { BaseCtx, Ctx, Router } from "./router.ts";

export interface PlayerDeps {
  catalogue: Catalogue;
  scoring: Scoring;
  /** The catalogue, leaderboard and home figures for every caller (server/core/public-cache.ts). */
  cache?: PublicCache;
  /** The signed-in caller (a hidden challenge is an admin's alone). */
  userId: (c: BaseCtx) => Promise<string>;
}

/** Reads that count as fresh for 5 minutes: HTTP-cacheable for anonymous callers (see `fresh`
 *  below); the public cache keeps them at most this long. */
export const FRESH_SECONDS = 5 * 60;

/** 200 with a 5-minute HTTP freshness for anonymous callers. A signed-in caller's answer says
 *  nothing about caching: a browser or proxy keeping it would show them a board without their
 *  own next solve, which the server-side cache never does. */
const fresh = <O>(c: Ctx<O>, data: Parameters<Ctx<O>["reply"]>[0]) =>
  c.reply(data, c.request.headers.has("authorization") ? {} : { headers: { "cache-control": `public, max-age=${FRESH_SECONDS}`, vary: "Authorization" } });

export function playerRoutes(r: Router, { catalogue, scoring, cache, userId }: PlayerDeps) {
  /** Reads that do not depend on the caller come from the public cache for everyone, signed in
   *  or not: the cache is exact (each read compares the database's change counter, bumped in
   *  the transaction of every solve and content change), so a signed-in player sees their own
   *  solve on the board at once, while ten players reading the same page cost one query. */
  const shared = <T>(key: string, load: () => Promise<T>): Promise<T> => (cache ? cache.get(key, load) : load());
  r.handle(operations.listChallenges, async (c) => {
    const q = c.query;
    // A caller who sends a token is signed in or told otherwise (401), never served as a visitor;
    // the progress filter needs one.
    const playerId = c.request.headers.has("authorization") ? await userId(c) : null;
    if (q.progress && !playerId) throw unauthorized("Sign in to filter by progress");
    const limit = q.limit ?? 100;
    const page = q.page ?? 1;
    // Without the progress filter the page and its counts depend only on the query (no caller in
    // them): one entry serves everyone. Filtered by progress they are the caller's own: never kept.
    const load = async () => {
      const [challenges, categories] = await Promise.all([catalogue.list(q, playerId), catalogue.categoryCounts(q, playerId)]);
      return { challenges, categories };
    };
    const { challenges, categories } = q.progress ? await load() : await shared(`challenges ${JSON.stringify(q)}`, load);
    const total = q.category ? (categories.find((x) => x.category === q.category!.toLowerCase())?.count ?? 0) : categories.reduce((n, x) => n + x.count, 0);
    // The caller's progress on this page: one query over their own rows.
    const progress = playerId
      ? await catalogue.progressOf(
          playerId,
          challenges.map((x) => x.uid),
        )
      : null;
    return fresh(c, {
      challenges: challenges.map((x) => ({ ...x, progress: progress?.get(x.uid) ?? null })),
      total,
      page,
      limit,
      categories,
    });
  });
  r.handle(operations.getChallenge, async (c) => {
    // Reading: a malformed id names no challenge (404); the deployment routes answer 400.
    if (!challengeIdParam.safeParse(c.params.id).success) throw notFound("Challenge not found");
    return catalogue.get(c.params.id, c.request.headers.has("authorization") ? await userId(c) : null);
  });
  r.handle(operations.getLeaderboard, async (c) => {
    const q = c.query;
    // The period's start is part of the key: a new day, week or month is a new board.
    const key = `leaderboard ${JSON.stringify(q)} ${periodStart(q.period ?? "all_time")}`;
    return fresh(c, await shared(key, () => scoring.leaderboard(q)));
  });
  r.handle(operations.listSolvedChallenges, async (c) => fresh(c, await scoring.userChallenges(c.params.username)));
  r.handle(operations.getRecentActivity, async (c) => scoring.recentActivity(c.params.username));
  r.handle(operations.getHomeStats, async () => shared("stats", () => scoring.homeStats()));
}
