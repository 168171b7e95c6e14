// The API's JSON shapes for costed hints, the debrief after solving, recordings and their
// replay (docs/api.md, "Hints, debrief and recordings").

/** One hint as the player may see it: the text only once revealed. */
export interface HintView {
  /** 1-based, the order in which hints are revealed. */
  number: number;
  /** Points deducted from the challenge's if and when it is solved. */
  cost: number;
  revealed: boolean;
  /** null until revealed: hint texts never leave the server before. */
  text: string | null;
}

/** GET /challenges/{id}/hints and the answer of POST .../hints/reveal. */
export interface HintsState {
  challenge_id: string;
  count: number;
  revealed: number;
  hints: HintView[];
  /** Sum of the revealed hints' costs (at most the challenge's points): what a solve will deduct. */
  pending_cost: number;
  /** Solved already: the costs were settled at the solve; later reveals cost nothing. */
  solved: boolean;
}

/** POST /challenges/{id}/hints/reveal: the hint the player saw the offer for (1-based), so a
 *  double post reveals nothing twice and nothing out of order. */
export interface HintRevealBody {
  number: number;
}

export const RECORDING_SOURCES = ["ssh", "web"] as const;
export type RecordingSource = (typeof RECORDING_SOURCES)[number];

/** A recording of one shell as its owner (or an admin) lists it. */
export interface RecordingView {
  id: string;
  challenge_id: string;
  deployment_id: string;
  source: RecordingSource;
  started_at: number;
  ended_at: number | null;
  bytes: number;
  truncated: boolean;
  published: boolean;
}

/** GET /challenges/{id}/debrief: only once solved (403 before). */
export interface Debrief {
  challenge_id: string;
  title: string;
  /** The root cause in a few sentences. */
  debrief: string;
  /** The reference fix, step by step. */
  solution_steps: string[];
  /** The challenge's points, what the solve earned, and what hints took. */
  points: number;
  points_awarded: number;
  hints_cost: number;
  /** Recordings of the solving deployment's shells, oldest first. */
  recordings: RecordingView[];
  /** The commands typed in those shells, in order (from the recordings' input; at most 2,000,
   *  each at most 500 characters). */
  commands: string[];
  /** True when the list stops short: a bound was reached, or a shell's list is not ready yet. */
  commands_cut: boolean;
}

/** A published solution as a public profile shows it. */
export interface PublishedSolution {
  recording_id: string;
  challenge_id: string;
  title: string;
  started_at: number;
  solved_at: number;
}
