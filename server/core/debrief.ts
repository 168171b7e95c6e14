// The debrief (issue 10): once a challenge is solved, and only then, its root cause
// (challenge.yaml `debrief`), the reference fix step by step (`solution_steps`), what the solve
// earned and what hints took, and the solving deployment's recordings with the commands typed in
// them (recordings/compare.ts), so the player can set their own session beside a good fix.
import type { Debrief } from "../../shared/contract/index.ts";
import type { Db } from "../db/index.ts";
import type { Challenge } from "../runtime/challenges.ts";
import { visibleTo } from "./admin/challenges.ts";
import { forbidden, notFound } from "./errors.ts";
import { recordingView } from "./recordings/access.ts";
import { commandsFromCast } from "./recordings/compare.ts";
import type { RecordingStore } from "./recordings/store.ts";

export const DEBRIEF_NEEDS_SOLVE = "Solve this challenge first: its debrief opens once your solution is accepted.";

export interface DebriefDeps {
  db: Db;
  challenges: ReadonlyMap<string, Challenge>;
  store: RecordingStore;
}

export function createDebriefs({ db, challenges, store }: DebriefDeps) {
  return {
    async get(userId: string, challengeId: string): Promise<Debrief> {
      const challenge = challenges.get(challengeId);
      // A hidden challenge's debrief is for admins only, as its start and hints are.
      if (!challenge || !(await visibleTo(db, userId, challengeId))) throw notFound("Challenge not found");
      const solve = await db
        .selectFrom("solves")
        .select(["deployment_id", "points", "solved_at"])
        .where("user_id", "=", userId)
        .where("challenge_id", "=", challengeId)
        .executeTakeFirst();
      if (!solve) throw forbidden(DEBRIEF_NEEDS_SOLVE);
      const rows = (await store.listByDeployment(solve.deployment_id)).filter((r) => r.user_id === userId);
      const commands: string[] = [];
      for (const r of rows) {
        const cast = await store.open(r.id);
        if (cast) commands.push(...commandsFromCast(cast));
      }
      return {
        challenge_id: challengeId,
        title: challenge.title,
        debrief: challenge.debrief,
        solution_steps: challenge.solutionSteps,
        points: challenge.points,
        points_awarded: Number(solve.points),
        // What the solve row lacks of the challenge's points is what hints took at the solve
        // (grading wrote the points with them deducted); later reveals are free.
        hints_cost: Math.max(0, challenge.points - Number(solve.points)),
        recordings: rows.map(recordingView),
        commands,
      };
    },
  };
}
export type Debriefs = ReturnType<typeof createDebriefs>;
