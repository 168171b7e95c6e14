// The API's JSON shapes for scoring: achievements, the leaderboard, a profile's solves and
// activity, the home page's figures (docs/api.md, "Catalogue, leaderboard and scoring"), and what a
// submission answers (its points, rank and the achievements it unlocked).
import type { Difficulty } from "./catalogue.ts";

export const PERIODS = ["all_time", "this_month", "this_week", "today"] as const;
export type Period = (typeof PERIODS)[number];

export const ACHIEVEMENT_IDS = ["first-blood", "speed-demon", "point-collector"] as const;
export type AchievementId = (typeof ACHIEVEMENT_IDS)[number];

/** An achievement as a user's views list it, locked or not. */
export interface Achievement {
  id: AchievementId;
  icon: string;
  title: string;
  description: string;
  xp: number;
  unlocked: boolean;
  /** Epoch seconds of the solve that unlocked it (absent while locked). */
  unlocked_at?: number;
}

/** An achievement a submission has just unlocked, as the success screen's toast shows it. */
export type AchievementUnlocked = Pick<Achievement, "icon" | "title" | "description" | "xp">;

export interface LeaderboardEntry {
  rank: number;
  username: string;
  points: number;
  challenges_completed: number;
  average_time: number | null;
}

export interface LeaderboardPage {
  entries: LeaderboardEntry[];
  /** Entries matching the search (all entries without one). */
  total: number;
  page: number;
  limit: number;
  period: Period;
}

export interface LeaderboardQuery {
  page?: number;
  limit?: number;
  period?: Period;
  search?: string;
}

export interface SolvedChallenge {
  id: string;
  uid: string;
  title: string;
  difficulty_level: Difficulty | null;
  category: string | null;
  points: number;
  solve_seconds: number;
  /** Minutes, one decimal. */
  solve_time_minutes: number;
  solved_at: number;
}

export type Activity =
  | { type: "solve"; at: number; challenge_id: string; title: string; points: number; solve_seconds: number }
  | { type: "achievement"; at: number; achievement_id: AchievementId; icon: string; title: string; xp: number }
  | { type: "joined"; at: number };

export interface HomeStats {
  /** Challenges in the catalogue. */
  challenges: number;
  /** Correct solutions (solves). */
  solutions: number;
  /** Registered users. */
  users: number;
}

/** POST /challenges/{id}/submit. */
export interface SubmissionResult {
  is_correct: boolean;
  feedback: string;
  points_awarded: number;
  /** Points the revealed hints took from this solve (server/core/hints.ts); 0 without. */
  hints_cost?: number;
  already_solved: boolean;
  solve_time_seconds: number | null;
  rank: number | null;
  ranked_users: number;
  total_points: number;
  achievements_unlocked: AchievementUnlocked[];
}

/** What a submission sends. */
export interface SubmissionBody {
  solution: string;
  deployment_uid: string;
}
