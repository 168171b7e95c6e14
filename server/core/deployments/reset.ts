// Reset to the broken state: a ready deployment's containers are replaced by fresh
// ones and setup runs again (new random values), keeping the deployment's id, expiry and ssh user
// (so the same ssh command works). ready → resetting → ready, told on the live channel; open
// shells are closed with a message first (the "reset" event, server.ts hands it to the gateway).
// At most RESETS_PER_DEPLOYMENT per deployment, counted in deployment_resets (migration 0013).
import { nowSeconds } from "#server/db/index.ts";
import { provision, runSetup } from "#server/runtime/scenario.ts";
import { RuntimeError } from "#server/runtime/types.ts";
import { NO_ACTIVE_DEPLOYMENT } from "#shared/rules.ts";
import type { DeploymentResetResult } from "#shared/contract/index.ts";
import { conflict, limitReached, notFound, unavailable } from "#server/core/errors.ts";
import { RUNTIME_UNAVAILABLE } from "./admission.ts";
import type { DeploymentContext } from "./context.ts";
import { type DeploymentRow, iso, publicError, toError } from "./model.ts";

export const RESETS_PER_DEPLOYMENT = 3;
export const RESET_NOT_READY = "Only a ready deployment can be reset.";
export const RESETS_USED_UP = `This deployment was already reset ${RESETS_PER_DEPLOYMENT} times, the most allowed. Terminate it and start the challenge again for a fresh one.`;

export function createReset(ctx: DeploymentContext) {
  const { db, runtime, challenges, log, maxLifetimeSeconds } = ctx.deps;
  const { jobs, events, transition, publish, progress, view, challengeOf, owner, activeFor } = ctx;

  /** Takes one of the deployment's resets; the count after, or null when none is left. */
  async function claim(deploymentId: string): Promise<number | null> {
    const now = nowSeconds();
    await db
      .insertInto("deployment_resets")
      .values({ deployment_id: deploymentId, count: 0, updated_at: now })
      .onConflict((oc) => oc.column("deployment_id").doNothing())
      .execute();
    const res = await db
      .updateTable("deployment_resets")
      .set((eb) => ({ count: eb("count", "+", 1), updated_at: now }))
      .where("deployment_id", "=", deploymentId)
      .where("count", "<", RESETS_PER_DEPLOYMENT)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    const row = await db.selectFrom("deployment_resets").select("count").where("deployment_id", "=", deploymentId).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  const giveBack = (deploymentId: string) =>
    db
      .updateTable("deployment_resets")
      .set((eb) => ({ count: eb("count", "-", 1) }))
      .where("deployment_id", "=", deploymentId)
      .where("count", ">", 0)
      .execute();

  async function reset(userId: string, challengeId: string): Promise<DeploymentResetResult> {
    challengeOf(challengeId);
    const row = await activeFor(userId, challengeId);
    if (!row) throw notFound(NO_ACTIVE_DEPLOYMENT);
    if (row.status !== "ready") throw conflict(RESET_NOT_READY);
    if (!runtime) throw unavailable(RUNTIME_UNAVAILABLE);
    const used = await claim(row.id);
    if (used === null) throw limitReached(RESETS_USED_UP);
    const resetting = await transition(row.id, ["ready"], { status: "resetting" });
    if (!resetting) {
      await giveBack(row.id);
      throw conflict(RESET_NOT_READY);
    }
    // Shells first (the gateway tells them why), then the containers go.
    events.emit("reset", row.id);
    const job = redeploy(resetting).finally(() => jobs.delete(row.id));
    jobs.set(row.id, job);
    await ctx.deps.audit?.record({
      action: "deployment.reset",
      actorId: userId,
      target: { type: "challenge", id: challengeId },
      detail: { deployment_id: row.id, reset: used },
    });
    return {
      message: "Resetting the deployment: fresh containers, the fault set up again. Same expiry, same ssh command.",
      deployment_id: row.id,
      expires_at: iso(row.expires_at),
      resets_left: RESETS_PER_DEPLOYMENT - used,
    };
  }

  /** The background part: old containers out, new ones in, setup again; ready with new values.
   *  Terminated or expired meanwhile: what was made is removed and nothing is marked. */
  async function redeploy(row: DeploymentRow): Promise<void> {
    const challenge = challenges.get(row.challenge_id);
    const rt = runtime!;
    try {
      if (!challenge) throw new RuntimeError(`challenge ${row.challenge_id} is no longer in the catalogue`, "not_found");
      progress(row, "resetting", 20, `Replacing the environment of ${challenge.title}`);
      await rt.removeDeployment(row.id);
      const hardExpiry = new Date((row.created_at + maxLifetimeSeconds + 60) * 1000);
      const env = await provision(rt, challenge, owner(row), hardExpiry);
      let current = await transition(row.id, ["resetting"], { container_id: env.target.id });
      if (!current) return void (await rt.removeDeployment(row.id));
      progress(current, "resetting", 60, `${challenge.hostname} is up again; breaking something`);
      const { values } = await runSetup(rt, challenge, env);
      current = await transition(row.id, ["resetting"], { status: "ready", ready_at: nowSeconds(), scenario_values: JSON.stringify(values) });
      if (!current) return void (await rt.removeDeployment(row.id));
      progress(current, "ready", 100, "Ready again: connect with ssh");
      const v = view(current);
      publish({ type: "deployment_ready", deployment_id: v.deployment_id, status: "ready", expires_at: v.expires_at, ssh_details: v.ssh_details });
      log.info(`deployment ${row.id} reset (${challenge.id}, user ${row.user_id})`);
    } catch (e) {
      log.warn(`deployment ${row.id} (${row.challenge_id}) reset failed: ${toError(e)}`);
      await rt.removeDeployment(row.id).catch((err) => log.error(`removing failed deployment ${row.id}`, err));
      const failed = await transition(row.id, ["resetting"], { status: "failed", error_message: publicError(e), active_key: null, ended_at: nowSeconds() });
      if (failed) {
        events.emit("ended", row.id);
        publish({ type: "deployment_error", deployment_id: row.id, status: "failed", error: failed.error_message ?? "" });
      }
    }
  }

  return { reset };
}
