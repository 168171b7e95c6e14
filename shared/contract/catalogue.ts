// The API's JSON shapes and enums for the challenge catalogue (docs/api.md, "Catalogue, leaderboard and scoring"): the
// list's filters and orders, and a challenge as the list shows it.

export const DIFFICULTIES = ["easy", "medium", "hard", "expert"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const CATEGORIES = ["linux", "kubernetes", "storage", "security", "networking"] as const;
export type Category = (typeof CATEGORIES)[number];

export const ORDERS = ["votes", "points", "title", "difficulty", "newest"] as const;
export type ChallengeOrder = (typeof ORDERS)[number];

export const BADGES = ["trending", "new", "popular"] as const;
export type Badge = (typeof BADGES)[number];

/** A challenge as the API lists it (docs/api.md, "Catalogue, leaderboard and scoring"). */
/** How a challenge is graded, said before a player starts (decision 008). */
export interface ChallengeGrading {
  /** The fix is judged on the running system and on a copy of its disk after a reboot. */
  after_reboot: boolean;
  /** What the written answer must name, one of each and no other candidate; how many wrong
   *  answers a deployment takes before it must be reset. Null: the challenge asks no question. */
  answer: { names: string[]; wrong_answers_allowed: number } | null;
}

export interface ChallengeView {
  /** The folder name: the uid, used as the id. */
  uid: string;
  id: string;
  title: string;
  difficulty_level: Difficulty;
  points: number;
  category: string;
  estimated_time_minutes: number;
  description: string;
  short_description: string;
  instructions: string;
  /** How many hints it has; their texts and costs come from /challenges/{id}/hints. */
  hint_count: number;
  tags: string[];
  badge: Badge | null;
  incident_note: string | null;
  grading: ChallengeGrading;
  is_approved: boolean;
  votes: number;
  /** How many users solved it. */
  solves: number;
  created_at: number;
}

/** GET /challenges/ query. */
export interface ListQuery {
  limit?: number;
  is_approved?: boolean;
  order_by?: ChallengeOrder;
  search?: string;
  category?: string;
  difficulty?: Difficulty;
}
