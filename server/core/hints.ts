// Costed hints: hidden until asked for, revealed one at a time and in order, remembered
// per user and challenge (table hint_reveals) across deployments. A hint's cost is deducted only
// if and when the challenge is solved, never below 0: grading asks `chargeOnSolve` for the
// solve's points inside its own transaction. Texts of hints not yet revealed never leave here.
import type { HintsState } from "#shared/contract/index.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { Challenge } from "#server/library/challenges.ts";
import { visibleTo } from "./admin/challenges.ts";
import { badRequest, conflict, notFound } from "./errors.ts";

/** Anything that runs queries: the database or a transaction of it. */
type Queryable = Pick<Db, "selectFrom">;

export const HINTS_IN_ORDER = (next: number) => `Reveal the hints in order: hint ${next} comes first.`;
export const NO_HINTS_LEFT = "Every hint of this challenge is revealed already.";

/** What the revealed hints take from a solve of `points`: their costs, capped at the points. */
export function hintDeduction(points: number, costs: number[]): { points: number; hintsCost: number } {
  const hintsCost = Math.min(
    points,
    costs.reduce((a, c) => a + c, 0),
  );
  return { points: points - hintsCost, hintsCost };
}

async function revealedCosts(q: Queryable, userId: string, challengeId: string): Promise<number[]> {
  const rows = await q
    .selectFrom("hint_reveals")
    .select(["hint_index", "cost"])
    .where("user_id", "=", userId)
    .where("challenge_id", "=", challengeId)
    .orderBy("hint_index")
    .execute();
  return rows.map((r) => Number(r.cost));
}

/** The points a solve inserted now earns: grading calls this inside its transaction, so the
 *  solve row's `points` already has the hints deducted (and score totals built from it agree). */
export async function hintChargeOnSolve(
  q: Queryable,
  userId: string,
  challenge: Pick<Challenge, "id" | "points">,
): Promise<{ points: number; hintsCost: number }> {
  return hintDeduction(challenge.points, await revealedCosts(q, userId, challenge.id));
}

export interface HintsDeps {
  db: Db;
  /** The library as loaded (the admin console's reload updates this map in place). */
  challenges: ReadonlyMap<string, Challenge>;
}

export function createHints({ db, challenges }: HintsDeps) {
  /** The challenge, if this user may have it: a hidden one's hints are for admins only. */
  async function challengeOf(userId: string, id: string): Promise<Challenge> {
    const c = challenges.get(id);
    if (!c || !(await visibleTo(db, userId, id))) throw notFound("Challenge not found");
    return c;
  }

  async function state(userId: string, challengeId: string): Promise<HintsState> {
    const challenge = await challengeOf(userId, challengeId);
    const [rows, solve] = await Promise.all([
      db.selectFrom("hint_reveals").select(["hint_index", "cost"]).where("user_id", "=", userId).where("challenge_id", "=", challengeId).execute(),
      db.selectFrom("solves").select("points").where("user_id", "=", userId).where("challenge_id", "=", challengeId).executeTakeFirst(),
    ]);
    const paid = new Map(rows.map((r) => [Number(r.hint_index), Number(r.cost)]));
    const hints = challenge.hints.map((h, i) => {
      const revealed = paid.has(i);
      return { number: i + 1, cost: revealed ? paid.get(i)! : h.cost, revealed, text: revealed ? h.text : null };
    });
    const revealed = hints.filter((h) => h.revealed).length;
    return {
      challenge_id: challengeId,
      count: hints.length,
      revealed,
      hints,
      pending_cost: solve ? 0 : hintDeduction(challenge.points, [...paid.values()]).hintsCost,
      solved: !!solve,
    };
  }

  /**
   * Reveals hint `number` (1-based) when it is the next one. Posting the same number again (a
   * double click, a reload of the form) changes nothing; skipping ahead is refused.
   */
  async function reveal(userId: string, challengeId: string, number: number): Promise<HintsState> {
    const challenge = await challengeOf(userId, challengeId);
    if (!challenge.hints.length) throw conflict("This challenge has no hints.");
    if (number > challenge.hints.length) throw badRequest(`This challenge has ${challenge.hints.length} hints.`);
    const revealed = (await revealedCosts(db, userId, challengeId)).length;
    if (number <= revealed) return state(userId, challengeId);
    if (revealed >= challenge.hints.length) throw conflict(NO_HINTS_LEFT);
    if (number !== revealed + 1) throw conflict(HINTS_IN_ORDER(revealed + 1));
    const index = number - 1;
    await db
      .insertInto("hint_reveals")
      .values({ user_id: userId, challenge_id: challengeId, hint_index: index, cost: challenge.hints[index]!.cost, revealed_at: nowSeconds() })
      // Two posts at once: the primary key keeps one; both answers show the hint.
      .onConflict((oc) => oc.columns(["user_id", "challenge_id", "hint_index"]).doNothing())
      .execute();
    return state(userId, challengeId);
  }

  return { state, reveal };
}
export type Hints = ReturnType<typeof createHints>;
