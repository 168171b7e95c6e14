// Plans, enforced: which challenges a user may start and how many deployments may run at once
// (the rules and their sentences are in shared/plans.ts). The deployments service runs the
// plan's `admission` steps with its own (server/core/deployments/admission.ts); the counting one
// runs under the user's start lock, so what it counts cannot change before the new deployment is
// written. Admins set plans with `setPlan`;
// the payment provider's webhooks set them through `extendPro` (billing.ts).
//
// The monthly medium allowance is counted from the deployments themselves: a medium deployment
// started this UTC month counts unless it failed before it was ever ready. So a failed start
// gives its credit back by itself, on every path that marks a start failed (the background
// deploy, the reconciliation after a restart), with no second record that could drift.
import { sql } from "kysely";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { Plan } from "#server/db/schema.ts";
import {
  CONCURRENT_DEPLOYMENTS,
  concurrencyRefusal,
  difficultyLock,
  effectivePlan,
  FREE_MEDIUM_PER_MONTH,
  mediumLock,
  monthBounds,
  PLAN_DIFFICULTIES,
  type PlanName,
} from "#shared/plans.ts";
import type { PlanStatus } from "#shared/contract/plans.ts";
import { badRequest, forbidden, notFound } from "./errors.ts";

export interface PlansDeps {
  db: Db;
  /** A challenge's title by id, for naming the running deployments in a refusal. */
  titleOf: (challengeId: string) => string | undefined;
}

/** What the start path tells the plan checks: who, which challenge, and (under the start lock)
 *  what already runs. Shaped as the deployments service's admission steps are given. */
export interface StartRequest {
  userId: string;
  challenge: { id: string; difficulty: string };
}
export interface CountedStartRequest extends StartRequest {
  active: { challenge_id: string }[];
}

const ACTIVE = ["queued", "deploying", "setting_up", "ready", "resetting"] as const;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export function createPlans({ db, titleOf }: PlansDeps) {
  async function userPlan(userId: string, now = nowSeconds()): Promise<{ plan: PlanName; until: number | null }> {
    const u = await db.selectFrom("users").select(["plan", "plan_until"]).where("id", "=", userId).executeTakeFirst();
    if (!u) throw notFound("User not found");
    const plan = effectivePlan(u.plan, u.plan_until, now);
    return { plan, until: plan === "pro" ? u.plan_until : null };
  }

  /** Medium deployments started this UTC month that hold a credit (see the header). */
  async function mediumStarted(userId: string, now = nowSeconds()): Promise<number> {
    const { start } = monthBounds(now);
    const row = await db
      .selectFrom("deployments as d")
      .innerJoin("challenges as c", "c.id", "d.challenge_id")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("d.user_id", "=", userId)
      .where("c.difficulty", "=", "medium")
      .where("d.created_at", ">=", start)
      .where((eb) => eb.not(eb.and([eb("d.status", "=", "failed"), eb("d.ready_at", "is", null)])))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  return {
    userPlan,

    /**
     * The plan's admission steps for the deployments service (server/core/deployments/admission.ts),
     * each refusing with 403 and a sentence that names the rule and what Pro gives:
     * `applicant` (before any lock): the challenge's level is in the plan;
     * `capacity` (under the user's start lock): deployments at once, free's medium allowance.
     */
    admission: {
      applicant: [
        async ({ userId, challenge }: StartRequest) => {
          const byLevel = difficultyLock((await userPlan(userId)).plan, challenge.difficulty);
          if (byLevel) throw forbidden(byLevel);
        },
      ],
      capacity: [
        async ({ userId, challenge, active }: CountedStartRequest) => {
          const now = nowSeconds();
          const { plan } = await userPlan(userId, now);
          if (active.length >= CONCURRENT_DEPLOYMENTS[plan]) {
            throw forbidden(
              concurrencyRefusal(
                plan,
                active.map((d) => titleOf(d.challenge_id) ?? d.challenge_id),
              ),
            );
          }
          if (challenge.difficulty !== "medium") return;
          const quota = mediumLock(plan, await mediumStarted(userId, now), monthBounds(now).next);
          if (quota) throw forbidden(quota);
        },
      ],
    },

    /** GET /users/me/plan. */
    async status(userId: string): Promise<PlanStatus> {
      const now = nowSeconds();
      const { plan, until } = await userPlan(userId, now);
      const active = await db
        .selectFrom("deployments")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("user_id", "=", userId)
        .where("status", "in", [...ACTIVE])
        .executeTakeFirst();
      return {
        plan,
        plan_until: until === null ? null : iso(until),
        limits: {
          concurrent_deployments: CONCURRENT_DEPLOYMENTS[plan],
          medium_per_month: plan === "free" ? FREE_MEDIUM_PER_MONTH : null,
          difficulties: [...PLAN_DIFFICULTIES[plan]],
        },
        usage: { medium_started_this_month: await mediumStarted(userId, now), active_deployments: Number(active?.n ?? 0) },
        month_resets_at: iso(monthBounds(now).next),
      };
    },

    /**
     * Sets a user's plan (admins). Free clears the end; Pro runs to `until` (epoch seconds, in the
     * future) or, with null, without an end. Deployments already running are left alone: the new
     * limits apply to the next start.
     */
    async setPlan(userId: string, plan: Plan, until: number | null) {
      if (plan === "pro" && until !== null && until <= nowSeconds()) throw badRequest("plan_until: must be in the future");
      const res = await db
        .updateTable("users")
        .set({ plan, plan_until: plan === "pro" ? until : null, updated_at: nowSeconds() })
        .where("id", "=", userId)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) throw notFound("User not found");
      return { plan, plan_until: plan === "pro" && until !== null ? iso(until) : null };
    },

    /**
     * Pro until `until` at least (a paid period): never shortens what the user has, so a replayed
     * or late event, or a subscription ending while an admin's open-ended grant runs, takes
     * nothing away. Runs inside the caller's transaction when given one.
     */
    async extendPro(userId: string, until: number, trx: Db = db) {
      await trx
        .updateTable("users")
        .set({
          plan: "pro",
          plan_until: sql<number | null>`CASE WHEN plan = 'pro' AND plan_until IS NULL THEN NULL
            WHEN plan = 'pro' AND plan_until > CAST(${until} AS bigint) THEN plan_until ELSE CAST(${until} AS bigint) END`,
          updated_at: nowSeconds(),
        })
        .where("id", "=", userId)
        .execute();
    },
  };
}
export type Plans = ReturnType<typeof createPlans>;
