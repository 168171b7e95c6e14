// The debrief: once a challenge is solved, and only then, its root cause
// (challenge.yaml `debrief`), the reference fix step by step (`solution_steps`), what the solve
// earned and what hints took, and the solving deployment's recordings with the commands typed in
// them, so the player can set their own session beside a good fix. The commands are the lists
// stored when each shell ended (recordings/commands.ts): reading a debrief computes nothing in
// proportion to what the player typed on the main thread, and it holds at most
// DEBRIEF_RECORDINGS shells and DEBRIEF_COMMANDS commands.
import type { Debrief } from "#shared/contract/index.ts";
import type { Db } from "#server/db/index.ts";
import type { Challenge } from "#server/library/challenges.ts";
import { visibleTo } from "./admin/challenges.ts";
import { forbidden, notFound } from "./errors.ts";
import { recordingView } from "./recordings/access.ts";
import type { RecordedCommands } from "./recordings/commands.ts";
import type { RecordingStore } from "./recordings/store.ts";

export const DEBRIEF_NEEDS_SOLVE = "Solve this challenge first: its debrief opens once your solution is accepted.";
/** Shells of the solving deployment a debrief lists, oldest first (the deployment quota keeps a
 *  new deployment's within it; older deployments may hold more). */
export const DEBRIEF_RECORDINGS = 200;

export interface DebriefDeps {
  db: Db;
  challenges: ReadonlyMap<string, Challenge>;
  store: RecordingStore;
  commands: Pick<RecordedCommands, "of">;
}

export function createDebriefs({ db, challenges, store, commands }: DebriefDeps) {
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
      const rows = (await store.listByDeployment(solve.deployment_id, DEBRIEF_RECORDINGS)).filter((r) => r.user_id === userId);
      const typed = await commands.of(rows);
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
        commands: typed.commands,
        commands_cut: typed.cut,
      };
    },
  };
}
export type Debriefs = ReturnType<typeof createDebriefs>;
