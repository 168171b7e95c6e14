// Grading: runs the challenge's check against the user's ready deployment, out of the user's
// reach (scenario.ts: the script is fed in at grading time and never stored; a probe container
// observes from outside where the challenge says so), stores every submission, and awards the
// points once: the solves table's primary key decides "already solved".
import { randomUUID } from "node:crypto";
import type { Achievement, SubmissionResult } from "#shared/contract/index.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { Logger } from "#server/logger.ts";
import type { Challenge } from "#server/library/challenges.ts";
import { runCheck } from "#server/runtime/scenario.ts";
import type { Runtime } from "#server/runtime/types.ts";
import type { Deployments } from "./deployments/index.ts";
import { RUNTIME_UNAVAILABLE } from "./deployments/admission.ts";
import { badRequest, conflict, limitReached, notFound, unavailable } from "./errors.ts";
import type { Audit } from "./audit.ts";
import { hintChargeOnSolve } from "./hints.ts";
import { judgeAnswer, WRONG_ANSWERS_PER_DEPLOYMENT, WRONG_ANSWERS_USED_UP, type AnswerVerdict } from "./answers.ts";
import { pruneSubmissions } from "./submissions.ts";
import type { RateLimiter } from "./ratelimit.ts";
import { NO_ACTIVE_DEPLOYMENT, VALIDATION_FAILED_DEFAULT } from "#shared/rules.ts";

const CHECK_RUNNING = "A check of this deployment is already running.";
// A check starts a container and runs for seconds: a few per minute is plenty for a person.
const SUBMIT_PER_USER = { max: 6, windowSeconds: 60 };

/** What grading needs from scoring (server/core/scoring.ts). */
export interface StatsSource {
  userStats(userId: string): Promise<{ total_points: number; rank: number | null; ranked_users: number; achievements: Achievement[] }>;
}

export interface GradingDeps {
  db: Db;
  runtime: Runtime | null;
  deployments: Deployments;
  challenges: ReadonlyMap<string, Challenge>;
  scoring: StatsSource;
  limiter: RateLimiter;
  log: Logger;
  /** The audit log (server/core/audit.ts): every graded submission is written there. */
  audit?: Pick<Audit, "record">;
  /** Told of every graded submission (the feedback mail, server/core/accounts/notifications.ts);
   *  not waited for, and its failures are its own. */
  onGraded?: (userId: string, challenge: Challenge, result: SubmissionResult) => Promise<unknown>;
}

export function createGrading({ db, runtime, deployments, challenges, scoring, limiter, log, audit, onGraded }: GradingDeps) {
  /** Deployments being checked right now: one check at a time each. */
  const checking = new Set<string>();

  /**
   * "One check at a time" for every replica sharing the database (migration 0010_replicas): the
   * row's check_until is set only when no check holds it. The lease outlasts the check's own
   * timeout, so a replica that dies mid-check frees the deployment by itself a minute later.
   */
  async function takeCheckLease(id: string, challenge: Challenge): Promise<boolean> {
    const now = nowSeconds();
    const res = await db
      .updateTable("deployments")
      .set({ check_until: now + challenge.check.timeoutSeconds + 60 })
      .where("id", "=", id)
      .where((eb) => eb.or([eb("check_until", "is", null), eb("check_until", "<=", now)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Wrong answers given on this deployment since its last reset (which drew new values). A reset
   *  is claimed while the deployment is ready, after every answer of the incident it replaces,
   *  and the next incident is ready seconds later: answers of the claim's second are the old one's. */
  async function wrongAnswers(deploymentId: string): Promise<number> {
    const reset = await db.selectFrom("deployment_resets").select("updated_at").where("deployment_id", "=", deploymentId).executeTakeFirst();
    const row = await db
      .selectFrom("submissions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("deployment_id", "=", deploymentId)
      .where("created_at", ">", Number(reset?.updated_at ?? -1))
      .where("answer_verdict", "=", "wrong")
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Grades, then tells onGraded (a graded submission only: refusals throw before). */
  async function submit(userId: string, challengeId: string, input: { solution: string; deployment_uid?: string | null }): Promise<SubmissionResult> {
    const result = await grade(userId, challengeId, input);
    const challenge = challenges.get(challengeId);
    if (onGraded && challenge) void onGraded(userId, challenge, result).catch((e) => log.error("after grading", e));
    return result;
  }

  async function grade(userId: string, challengeId: string, input: { solution: string; deployment_uid?: string | null }): Promise<SubmissionResult> {
    const challenge = challenges.get(challengeId);
    if (!challenge) throw notFound("Challenge not found");
    await limiter.consume(`submit:${userId}`, SUBMIT_PER_USER);
    const row = await deployments.readyFor(userId, challengeId, input.deployment_uid ?? undefined);
    if (!row) throw badRequest(NO_ACTIVE_DEPLOYMENT);
    if (row.status !== "ready") throw conflict("Your deployment is not ready yet: wait until it is, then submit.");
    if (!runtime) throw unavailable(RUNTIME_UNAVAILABLE);
    if (checking.has(row.id)) throw conflict(CHECK_RUNNING);
    checking.add(row.id);
    let leased = false;
    try {
      // Across replicas too: a lease on the row, taken by one conditional update.
      leased = await takeCheckLease(row.id, challenge);
      if (!leased) throw conflict(CHECK_RUNNING);
      const { env, values } = await deployments.environment(row);
      const before = await scoring.userStats(userId);
      // The written answer first, by the platform (answers.ts): a wrong one costs no container.
      let answer: AnswerVerdict | null = null;
      if (challenge.answer.length) {
        if ((await wrongAnswers(row.id)) >= WRONG_ANSWERS_PER_DEPLOYMENT) throw limitReached(WRONG_ANSWERS_USED_UP);
        answer = judgeAnswer(challenge.answer, values, input.solution);
      }
      const outcome =
        answer && answer.verdict !== "right" ? { passed: false, feedback: answer.feedback, durationMs: 0 } : await runCheck(runtime, challenge, env, values);
      const now = nowSeconds();
      const feedback = outcome.feedback.trim() || (outcome.passed ? "Correct!" : VALIDATION_FAILED_DEFAULT);
      const solveSeconds = Math.max(0, now - row.created_at);
      // The submission and the points land together or not at all: a crash between the two
      // would leave a correct submission without its solve.
      let charge = { points: challenge.points, hintsCost: 0 };
      const inserted = await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("submissions")
          .values({
            id: randomUUID(),
            user_id: userId,
            challenge_id: challengeId,
            deployment_id: row.id,
            solution: input.solution,
            is_correct: outcome.passed ? 1 : 0,
            feedback,
            answer_verdict: answer?.verdict ?? null,
            created_at: now,
          })
          .execute();
        await pruneSubmissions(trx, userId);
        if (!outcome.passed) return null;
        // Revealed hints cost points only here, at the solve (server/core/hints.ts).
        charge = await hintChargeOnSolve(trx, userId, challenge);
        return trx
          .insertInto("solves")
          .values({ user_id: userId, challenge_id: challengeId, deployment_id: row.id, points: charge.points, solve_seconds: solveSeconds, solved_at: now })
          .onConflict((oc) => oc.columns(["user_id", "challenge_id"]).doNothing())
          .executeTakeFirst();
      });
      log.info(`submission for ${challengeId} by ${userId} on ${row.id}: ${outcome.passed ? "correct" : "not correct"} (check ${outcome.durationMs} ms)`);
      await audit?.record({
        action: "submission",
        actorId: userId,
        target: { type: "challenge", id: challengeId },
        detail: { deployment_id: row.id, correct: outcome.passed },
      });
      if (!outcome.passed || !inserted) {
        return {
          is_correct: false,
          feedback,
          points_awarded: 0,
          already_solved: false,
          solve_time_seconds: null,
          rank: before.rank,
          ranked_users: before.ranked_users,
          total_points: before.total_points,
          achievements_unlocked: [],
        };
      }
      const awarded = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
      const after = awarded ? await scoring.userStats(userId) : before;
      const had = new Set(before.achievements.filter((a) => a.unlocked).map((a) => a.id));
      return {
        is_correct: true,
        feedback,
        points_awarded: awarded ? charge.points : 0,
        hints_cost: awarded ? charge.hintsCost : 0,
        already_solved: !awarded,
        solve_time_seconds: solveSeconds,
        rank: after.rank,
        ranked_users: after.ranked_users,
        total_points: after.total_points,
        achievements_unlocked: after.achievements
          .filter((a) => a.unlocked && !had.has(a.id))
          .map(({ icon, title, description, xp }) => ({ icon, title, description, xp })),
      };
    } finally {
      checking.delete(row.id);
      if (leased)
        await db
          .updateTable("deployments")
          .set({ check_until: null })
          .where("id", "=", row.id)
          .execute()
          .catch((e) => log.error(`freeing the check of ${row.id}`, e));
    }
  }

  return { submit };
}
export type Grading = ReturnType<typeof createGrading>;
