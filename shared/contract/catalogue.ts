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
