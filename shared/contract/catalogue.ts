// The API's JSON shapes and enums for the challenge catalogue (docs/api.md, "Catalogue, leaderboard and scoring"): the
// list's filters and orders, and a challenge as the list shows it.
import { z } from "zod";
import { blank, oneOf, queryText, wholeNumber } from "./inputs.ts";
import { defineOperations } from "./operation.ts";

export const DIFFICULTIES = ["easy", "medium", "hard", "expert"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const CATEGORIES = ["linux", "kubernetes", "storage", "security", "networking"] as const;
export type Category = (typeof CATEGORIES)[number];

/** "solves": the most solved first. No "rating" yet: there are no ratings to order by. */
export const ORDERS = ["votes", "points", "title", "difficulty", "newest", "solves"] as const;
export type ChallengeOrder = (typeof ORDERS)[number];

/** Where the signed-in player stands with a challenge: solved it; attempted it (had a deployment
 *  of it or submitted, without a solve); new (neither). */
export const PROGRESS = ["solved", "attempted", "new"] as const;
export type Progress = (typeof PROGRESS)[number];
/** The catalogue's progress filter (signed-in callers only): "unsolved" is attempted or new. */
export const PROGRESS_FILTERS = ["solved", "unsolved"] as const;
export type ProgressFilter = (typeof PROGRESS_FILTERS)[number];

/** A list page holds at most this many challenges; pages go up to MAX_PAGE. */
export const MAX_LIST_LIMIT = 100;
export const MAX_PAGE = 10_000;

export const BADGES = ["trending", "new", "popular"] as const;
export type Badge = (typeof BADGES)[number];

/** How a challenge is graded, said before a player starts (decision 008). */
export const challengeGradingSchema = z.object({
  /** The fix is judged on the running system and on a copy of its disk after a reboot. */
  after_reboot: z.boolean(),
  /** What the written answer must name, one of each and no other candidate; how many wrong
   *  answers a deployment takes before it must be reset. Null: the challenge asks no question. */
  answer: z.object({ names: z.array(z.string()), wrong_answers_allowed: z.number() }).nullable(),
});
export type ChallengeGrading = z.infer<typeof challengeGradingSchema>;

/** A challenge as the API lists it (docs/api.md, "Catalogue, leaderboard and scoring"). */
export const challengeViewSchema = z.object({
  /** The folder name: the uid, used as the id. */
  uid: z.string(),
  id: z.string(),
  title: z.string(),
  difficulty_level: z.enum(DIFFICULTIES),
  points: z.number(),
  category: z.string(),
  estimated_time_minutes: z.number(),
  description: z.string(),
  short_description: z.string(),
  instructions: z.string(),
  /** How many hints it has; their texts and costs come from /challenges/{id}/hints. */
  hint_count: z.number(),
  tags: z.array(z.string()),
  badge: z.enum(BADGES).nullable(),
  incident_note: z.string().nullable(),
  grading: challengeGradingSchema,
  is_approved: z.boolean(),
  votes: z.number(),
  /** How many users solved it. */
  solves: z.number(),
  created_at: z.number(),
});
export type ChallengeView = z.infer<typeof challengeViewSchema>;

/** A challenge in the list: the view plus the caller's progress (null for a visitor). */
export const listedChallengeSchema = challengeViewSchema.extend({ progress: z.enum(PROGRESS).nullable() });
export type ListedChallenge = z.infer<typeof listedChallengeSchema>;

/** How many challenges each category holds under the list's other filters (search, difficulty,
 *  progress), the category filter itself aside; categories in lower case, none with 0. */
export const categoryCountSchema = z.object({ category: z.string(), count: z.number() });
export type CategoryCount = z.infer<typeof categoryCountSchema>;

const allMeansNone = (v: unknown) => (typeof v === "string" && v.trim().toLowerCase() === "all" ? undefined : v);

/** GET /challenges/ query. */
export const challengeListQuery = z.object({
  limit: wholeNumber(1, MAX_LIST_LIMIT),
  /** 1-based; `limit` challenges a page. */
  page: wholeNumber(1, MAX_PAGE),
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
  /** Signed-in callers only (401 otherwise): the caller's solved or unsolved challenges. */
  progress: z.preprocess(allMeansNone, oneOf(PROGRESS_FILTERS)),
});
/** What the web sends (the query parses its text into these, and is laxer about words). */
export interface ListQuery {
  limit?: number;
  is_approved?: boolean;
  order_by?: ChallengeOrder;
  search?: string;
  category?: string;
  difficulty?: Difficulty;
  page?: number;
  progress?: ProgressFilter;
}

/** GET /challenges/ answer: one page, the count of all that match, and the per-category counts. */
export const challengeListSchema = z.object({
  challenges: z.array(listedChallengeSchema),
  /** How many challenges match the filters, on every page. */
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  categories: z.array(categoryCountSchema),
});
export type ChallengeList = z.infer<typeof challengeListSchema>;

export const catalogueOperations = defineOperations({
  listChallenges: {
    method: "GET",
    path: "/challenges/",
    summary: "The catalogue, filtered and ordered",
    tags: ["Challenges"],
    access: "optional-user",
    personalToken: "read",
    query: challengeListQuery,
    returns: "{challenges, total, page, limit, categories}; each challenge's progress for a signed-in caller; fresh for 5 minutes for visitors",
    errors: { 401: "progress without a valid sign-in, or a bad token" },
    response: challengeListSchema,
  },
  getChallenge: {
    method: "GET",
    path: "/challenges/:id",
    summary: "One challenge",
    tags: ["Challenges"],
    access: "optional-user",
    personalToken: "read",
    // Reading: a malformed id names no challenge (404, said by the handler), not a bad input.
    params: z.object({ id: z.string() }),
    errors: { 404: "Challenge not found" },
    response: challengeViewSchema,
  },
});
