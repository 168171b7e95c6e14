// The API's JSON shapes for scoring: achievements, the leaderboard, a profile's solves and
// activity, the home page's figures (docs/api.md, "Catalogue, leaderboard and scoring"), and what a
// submission answers (its points, rank and the achievements it unlocked).
import { z } from "zod";
import { DIFFICULTIES } from "./catalogue.ts";
import { oneOf, queryText, wholeNumber } from "./inputs.ts";
import { defineOperations } from "./operation.ts";

export const PERIODS = ["all_time", "this_month", "this_week", "today"] as const;
export type Period = (typeof PERIODS)[number];

export const ACHIEVEMENT_IDS = ["first-blood", "speed-demon", "point-collector"] as const;
export type AchievementId = (typeof ACHIEVEMENT_IDS)[number];

/** An achievement as a user's views list it, locked or not. */
export const achievementSchema = z.object({
  id: z.enum(ACHIEVEMENT_IDS),
  icon: z.string(),
  title: z.string(),
  description: z.string(),
  xp: z.number(),
  unlocked: z.boolean(),
  /** Epoch seconds of the solve that unlocked it (absent while locked). */
  unlocked_at: z.number().optional(),
});
export type Achievement = z.infer<typeof achievementSchema>;

/** An achievement a submission has just unlocked, as the success screen's toast shows it. */
export const achievementUnlockedSchema = achievementSchema.pick({ icon: true, title: true, description: true, xp: true });
export type AchievementUnlocked = z.infer<typeof achievementUnlockedSchema>;

export const leaderboardEntrySchema = z.object({
  rank: z.number(),
  username: z.string(),
  points: z.number(),
  challenges_completed: z.number(),
  average_time: z.number().nullable(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

export const leaderboardPageSchema = z.object({
  entries: z.array(leaderboardEntrySchema),
  /** Entries matching the search (all entries without one). */
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  period: z.enum(PERIODS),
});
export type LeaderboardPage = z.infer<typeof leaderboardPageSchema>;

export const leaderboardQuery = z.object({
  page: wholeNumber(1, 100_000),
  limit: wholeNumber(1, 100),
  period: oneOf(PERIODS),
  search: queryText(100),
});
export type LeaderboardQuery = z.output<typeof leaderboardQuery>;

export const solvedChallengeSchema = z.object({
  id: z.string(),
  uid: z.string(),
  title: z.string(),
  difficulty_level: z.enum(DIFFICULTIES).nullable(),
  category: z.string().nullable(),
  points: z.number(),
  solve_seconds: z.number(),
  /** Minutes, one decimal. */
  solve_time_minutes: z.number(),
  solved_at: z.number(),
});
export type SolvedChallenge = z.infer<typeof solvedChallengeSchema>;

export const activitySchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("solve"), at: z.number(), challenge_id: z.string(), title: z.string(), points: z.number(), solve_seconds: z.number() }),
  z.object({
    type: z.literal("achievement"),
    at: z.number(),
    achievement_id: z.enum(ACHIEVEMENT_IDS),
    icon: z.string(),
    title: z.string(),
    xp: z.number(),
  }),
  z.object({ type: z.literal("joined"), at: z.number() }),
]);
export type Activity = z.infer<typeof activitySchema>;

export const homeStatsSchema = z.object({
  /** Challenges in the catalogue. */
  challenges: z.number(),
  /** Correct solutions (solves). */
  solutions: z.number(),
  /** Registered users. */
  users: z.number(),
});
export type HomeStats = z.infer<typeof homeStatsSchema>;

/** POST /challenges/{id}/submit. */
export const submissionResultSchema = z.object({
  is_correct: z.boolean(),
  feedback: z.string(),
  points_awarded: z.number(),
  /** Points the revealed hints took from this solve (server/core/hints.ts); 0 without. */
  hints_cost: z.number().optional(),
  already_solved: z.boolean(),
  solve_time_seconds: z.number().nullable(),
  rank: z.number().nullable(),
  ranked_users: z.number(),
  total_points: z.number(),
  achievements_unlocked: z.array(achievementUnlockedSchema),
});
export type SubmissionResult = z.infer<typeof submissionResultSchema>;

const username = z.object({ username: z.string() });

export const scoringOperations = defineOperations({
  getLeaderboard: {
    method: "GET",
    path: "/leaderboard",
    summary: "The leaderboard: a page of one period, optionally searched",
    tags: ["Leaderboard"],
    access: "optional-user",
    personalToken: "read",
    query: leaderboardQuery,
    response: leaderboardPageSchema,
  },
  listSolvedChallenges: {
    method: "GET",
    path: "/users/:username/challenges/",
    summary: "The challenges a player solved",
    tags: ["Users"],
    access: "optional-user",
    personalToken: "read",
    params: username,
    errors: { 404: "No such user" },
    response: z.object({ challenges: z.array(solvedChallengeSchema) }),
  },
  getRecentActivity: {
    method: "GET",
    path: "/users/:username/activity",
    summary: "A player's recent activity",
    tags: ["Users"],
    access: "public",
    personalToken: "read",
    params: username,
    errors: { 404: "No such user" },
    response: z.object({ activity: z.array(activitySchema) }),
  },
  getHomeStats: {
    method: "GET",
    path: "/stats",
    summary: "The home page's figures",
    tags: ["Leaderboard"],
    access: "public",
    personalToken: "read",
    response: homeStatsSchema,
  },
});
