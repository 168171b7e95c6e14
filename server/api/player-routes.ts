// The player's read side of the API: catalogue, leaderboard, solved challenges, activity, home
// figures. Transport only: validate the query, call one service. Registered last, after the
// deployment routes, so "/challenges/active-session" and "/challenges/:id/..." win over ":id".
import { z } from "zod";
import { CATEGORIES, DIFFICULTIES, ORDERS, PERIODS } from "../../shared/contract/index.ts";
import type { Catalogue } from "../core/catalogue.ts";
import { notFound } from "../core/errors.ts";
import type { PublicCache } from "../core/public-cache.ts";
import { periodStart, type Scoring } from "../core/scoring.ts";
import { type Ctx, json, type Router } from "./router.ts";
import { blank, challengeIdParam, oneOf, queryText, wholeNumber } from "./schemas.ts";

export interface PlayerDeps {
  catalogue: Catalogue;
  scoring: Scoring;
  /** The catalogue, leaderboard and home figures for every caller (server/core/public-cache.ts). */
  cache?: PublicCache;
  /** The signed-in caller (a hidden challenge is an admin's alone). */
  userId: (c: Ctx) => Promise<string>;
}

/** Reads that count as fresh for 5 minutes: HTTP-cacheable for anonymous callers (see `fresh`
 *  below); the public cache keeps them at most this long. */
export const FRESH_SECONDS = 5 * 60;

export const challengeListQuery = z.object({
  limit: wholeNumber(1, 100),
  is_approved: z.preprocess(
    (v) => (typeof v === "string" ? blank(v.trim().toLowerCase()) : v),
    z
      .enum(["true", "false", "1", "0"], { error: "must be true or false" })
      .transform((v) => v === "true" || v === "1")
      .optional(),
  ),
  order_by: oneOf(ORDERS),
  search: queryText(100),
  category: z.preprocess((v) => (typeof v === "string" && v.trim().toLowerCase() === "all" ? undefined : v), oneOf(CATEGORIES)),
  difficulty: z.preprocess((v) => (typeof v === "string" && v.trim().toLowerCase() === "all" ? undefined : v), oneOf(DIFFICULTIES)),
});

export const leaderboardQuery = z.object({
  page: wholeNumber(1, 100_000),
  limit: wholeNumber(1, 100),
  period: oneOf(PERIODS),
  search: queryText(100),
});

/** 200 with a 5-minute HTTP freshness for anonymous callers. A signed-in caller's answer says
 *  nothing about caching: a browser or proxy keeping it would show them a board without their
 *  own next solve, which the server-side cache never does. */
const fresh = (c: Ctx, data: unknown) =>
  c.request.headers.has("authorization") ? json(data) : json(data, 200, { "cache-control": `public, max-age=${FRESH_SECONDS}`, vary: "Authorization" });

export function playerRoutes(r: Router, { catalogue, scoring, cache, userId }: PlayerDeps) {
  /** Reads that do not depend on the caller come from the public cache for everyone, signed in
   *  or not: the cache is exact (each read compares the database's change counter, bumped in
   *  the transaction of every solve and content change), so a signed-in player sees their own
   *  solve on the board at once, while ten players reading the same page cost one query. */
  const shared = <T>(key: string, load: () => Promise<T>): Promise<T> => (cache ? cache.get(key, load) : load());
  r.get(
    "/challenges/",
    {
      summary: "The catalogue, filtered and ordered",
      tags: ["Challenges"],
      access: "optional-user",
      query: challengeListQuery,
      returns: "{challenges}; fresh for 5 minutes for visitors",
    },
    async (c) => {
      const q = c.query(challengeListQuery);
      // catalogue.list depends only on the query (no caller in it): one entry serves everyone.
      return fresh(c, await shared(`challenges ${JSON.stringify(q)}`, async () => ({ challenges: await catalogue.list(q) })));
    },
  );
  r.get(
    "/challenges/:id",
    { summary: "One challenge", tags: ["Challenges"], access: "optional-user", params: { id: challengeIdParam }, errors: { 404: "Challenge not found" } },
    async (c) => {
      // Reading: a malformed id names no challenge (404); the deployment routes answer 400.
      if (!challengeIdParam.safeParse(c.params.id).success) throw notFound("Challenge not found");
      return catalogue.get(c.params.id!, c.request.headers.has("authorization") ? await userId(c) : null);
    },
  );
  r.get(
    "/leaderboard",
    { summary: "The leaderboard: a page of one period, optionally searched", tags: ["Leaderboard"], access: "optional-user", query: leaderboardQuery },
    async (c) => {
      const q = c.query(leaderboardQuery);
      // The period's start is part of the key: a new day, week or month is a new board.
      const key = `leaderboard ${JSON.stringify(q)} ${periodStart(q.period ?? "all_time")}`;
      return fresh(c, await shared(key, () => scoring.leaderboard(q)));
    },
  );
  r.get(
    "/users/:username/challenges/",
    { summary: "The challenges a player solved", tags: ["Users"], access: "optional-user", errors: { 404: "No such user" } },
    async (c) => fresh(c, await scoring.userChallenges(c.params.username!)),
  );
  r.get("/users/:username/activity", { summary: "A player's recent activity", tags: ["Users"], access: "public", errors: { 404: "No such user" } }, async (c) =>
    scoring.recentActivity(c.params.username!),
  );
  r.get("/stats", { summary: "The home page's figures", tags: ["Leaderboard"], access: "public" }, async () => shared("stats", () => scoring.homeStats()));
}
