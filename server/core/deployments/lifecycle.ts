// A deployment's life: start (answers at once, then deploys in the background: queued →
// deploying → setting_up → ready, or failed), extend, terminate, expiry. What a start must pass
// first is admission.ts; bringing rows and containers back into agreement is reconciliation.ts.
import { randomUUID } from "node:crypto";
import { nowSeconds } from "#server/db/index.ts";
import { withDatabaseLocks } from "#server/db/locks.ts";
import { provision, runSetup } from "#server/runtime/scenario.ts";
import { RuntimeError } from "#server/runtime/types.ts";
import { NO_ACTIVE_DEPLOYMENT } from "#shared/rules.ts";
import { conflict, notFound } from "#server/core/errors.ts";
import { ALREADY_RUNNING, createAdmission } from "./admission.ts";
import type { DeploymentContext } from "./context.ts";
import { ACTIVE, type DeploymentRow, iso, publicError, toError } from "./model.ts";

/** The key of the platform-wide start lock (user ids are UUIDs: no user has this one). */
const CAPACITY_LOCK = "\0capacity";

export function createLifecycle(ctx: DeploymentContext) {
  const { db, runtime, challenges, log } = ctx.deps;
  const { maxLifetimeSeconds } = ctx.deps;
  const durationSeconds = () => ctx.deps.currentDurationSeconds?.() ?? ctx.deps.durationSeconds;
  const { jobs, events, transition, publish, progress, view, challengeOf, owner, activeFor } = ctx;
  const { admission, admitApplicant, admitCapacity } = createAdmission(ctx);
  /** Starts of one user are serialised: the concurrency cap is checked and taken atomically. */
  const userLocks = new Map<string, Promise<unknown>>();

  async function withUserLock<T>(userId: string, fn: () => Promise<T>): Promise<T> {
    const previous = userLocks.get(userId) ?? Promise.resolve();
    const mine = previous.catch(() => {}).then(fn);
    userLocks.set(userId, mine);
    try {
      return await mine;
    } finally {
      if (userLocks.get(userId) === mine) userLocks.delete(userId);
    }
  }

  /** The start path: look up, admit (admission.ts), write the queued row, deploy in the background. */
  async function start(userId: string, challengeId: string) {
    const challenge = challengeOf(challengeId);
    const user = await db.selectFrom("users").select(["is_verified", "ssh_public_key"]).where("id", "=", userId).executeTakeFirst();
    if (!user) throw notFound("User not found");
    const applicant = { userId, challenge, user };
    await admitApplicant(applicant);

    // The user's lock, then the platform-wide one: the capacity is checked and taken atomically.
    // In memory first (one waiter per process), then in the database: replicas on PostgreSQL
    // share them (server/db/locks.ts).
    const row = await withUserLock(userId, () =>
      withUserLock(CAPACITY_LOCK, () =>
        withDatabaseLocks(db, [`start:${userId}`, "start:capacity"], async () => {
          const active = await db
            .selectFrom("deployments")
            .select(["id", "challenge_id"])
            .where("user_id", "=", userId)
            .where("status", "in", ACTIVE)
            .execute();
          await admitCapacity({ ...applicant, active });
          const now = nowSeconds();
          const values: DeploymentRow = {
            id: randomUUID(),
            user_id: userId,
            challenge_id: challengeId,
            status: "queued",
            error_message: null,
            ssh_user: challenge.id,
            container_id: null,
            scenario_values: null,
            active_key: `${userId}:${challengeId}`,
            // This replica deploys it: if it dies half-way, the worker's leader starts it again.
            deployer: ctx.deps.replica?.id ?? null,
            check_until: null,
            created_at: now,
            ready_at: null,
            expires_at: now + durationSeconds(),
            ended_at: null,
            updated_at: now,
          };
          try {
            // A ready deployment from the warm pool when there is one (pool.ts): same id, set up
            // already, its expiry counted from now; else a cold start deployed in the background.
            const claimed = await ctx.pool.claim(challengeId, async (trx, pooled) => {
              const ready: DeploymentRow = {
                ...values,
                id: pooled.id,
                status: "ready",
                container_id: pooled.container_id,
                scenario_values: pooled.scenario_values,
                ready_at: now,
              };
              await trx.insertInto("deployments").values(ready).execute();
              return ready;
            });
            if (claimed) return claimed;
            await db.insertInto("deployments").values(values).execute();
          } catch (e) {
            // The unique index on active_key: another start of the same challenge won the race.
            if (/unique|duplicate/i.test(toError(e))) throw conflict(ALREADY_RUNNING);
            throw e;
          }
          return values;
        }),
      ),
    );
    if (row.status === "ready") announceReady(row, "from the warm pool");
    else launch(row);
    await ctx.deps.audit?.record({
      action: "deployment.start",
      actorId: userId,
      target: { type: "challenge", id: challengeId },
      detail: { deployment_id: row.id, expires_at: row.expires_at },
    });
    return {
      expires_at: iso(row.expires_at),
      deployment_status: { deployment_id: row.id, status: row.status },
      // The API's field name (docs/api.md); it holds the deployment's id.
      session_id: row.id,
    };
  }

  function launch(row: DeploymentRow) {
    const job = deploy(row).finally(() => jobs.delete(row.id));
    jobs.set(row.id, job);
  }

  /** The background part of a start: environment, fault, ready. Any step may find that the
   *  deployment was terminated meanwhile; then what was made is removed and nothing is marked. */
  async function deploy(row: DeploymentRow): Promise<void> {
    const challenge = challenges.get(row.challenge_id);
    const rt = runtime!;
    try {
      if (!challenge) throw new RuntimeError(`challenge ${row.challenge_id} is no longer in the catalogue`, "not_found");
      let current = await transition(row.id, ["queued"], { status: "deploying" });
      if (!current) return;
      progress(current, "deploying", 20, `Creating the environment for ${challenge.title}`);
      // The engine's own hard stop: the longest this deployment may live, plus a minute of grace.
      const hardExpiry = new Date((row.created_at + maxLifetimeSeconds + 60) * 1000);
      const env = await provision(rt, challenge, owner(row), hardExpiry);
      current = await transition(row.id, ["deploying"], { status: "setting_up", container_id: env.target.id });
      if (!current) return void (await rt.removeDeployment(row.id));
      progress(current, "setting_up", 60, `${challenge.hostname} is up; breaking something`);
      const { values } = await runSetup(rt, challenge, env);
      current = await transition(row.id, ["setting_up"], { status: "ready", ready_at: nowSeconds(), scenario_values: JSON.stringify(values) });
      if (!current) return void (await rt.removeDeployment(row.id));
      announceReady(current, `in ${Date.now() / 1000 - row.created_at}s`);
    } catch (e) {
      log.warn(`deployment ${row.id} (${row.challenge_id}) failed: ${toError(e)}`);
      await rt.removeDeployment(row.id).catch((err) => log.error(`removing failed deployment ${row.id}`, err));
      const failed = await transition(row.id, ["queued", "deploying", "setting_up"], {
        status: "failed",
        error_message: publicError(e),
        active_key: null,
        ended_at: nowSeconds(),
      });
      if (failed) publish({ type: "deployment_error", deployment_id: row.id, status: "failed", error: failed.error_message ?? "" });
    }
  }

  /** Tells the live channel (and the log) that a deployment is ready. */
  function announceReady(row: DeploymentRow, how: string) {
    progress(row, "ready", 100, "Ready: connect with ssh");
    const v = view(row);
    publish({ type: "deployment_ready", deployment_id: v.deployment_id, status: "ready", expires_at: v.expires_at, ssh_details: v.ssh_details });
    log.info(`deployment ${row.id} ready (${row.challenge_id}, user ${row.user_id}) ${how}`);
  }

  async function extend(userId: string, challengeId: string) {
    challengeOf(challengeId);
    const row = await activeFor(userId, challengeId);
    if (!row) throw notFound(NO_ACTIVE_DEPLOYMENT);
    if (row.status !== "ready") throw conflict("Only a ready deployment can be extended.");
    const limit = row.created_at + maxLifetimeSeconds;
    if (row.expires_at >= limit) {
      throw conflict(`A deployment lasts at most ${Math.round(maxLifetimeSeconds / 60)} minutes: it cannot be extended further.`);
    }
    const expires = Math.min(row.expires_at + durationSeconds(), limit);
    const updated = await transition(row.id, ["ready"], { expires_at: expires });
    if (!updated) throw conflict("Only a ready deployment can be extended.");
    return { expires_at: iso(expires), message: `Extended until ${iso(expires)}` };
  }

  /** Ends an active deployment (any reason): marks it, tells the live channel and the gateway,
   *  removes its containers. Returns false when it was not active any more. */
  async function end(row: Pick<DeploymentRow, "id">, status: "terminated" | "failed", reason: string | null) {
    const ended = await transition(row.id, ACTIVE, { status, active_key: null, ended_at: nowSeconds(), error_message: reason });
    if (!ended) return false;
    events.emit("ended", row.id);
    if (runtime) await runtime.removeDeployment(row.id).catch((e) => log.error(`removing deployment ${row.id}`, e));
    return true;
  }

  async function terminate(userId: string, challengeId: string) {
    challengeOf(challengeId);
    const row = await activeFor(userId, challengeId);
    if (!row) throw notFound(NO_ACTIVE_DEPLOYMENT);
    await end(row, "terminated", null);
    await ctx.deps.audit?.record({
      action: "deployment.terminate",
      actorId: userId,
      target: { type: "challenge", id: challengeId },
      detail: { deployment_id: row.id },
    });
    return { message: "Deployment terminated", deployment_id: row.id };
  }

  /** Ends every active deployment of a user, whatever its challenge (an account disabled);
   *  returns how many ended. */
  async function terminateAllForUser(userId: string, reason: string) {
    const rows = await db.selectFrom("deployments").select(["id", "challenge_id"]).where("user_id", "=", userId).where("status", "in", ACTIVE).execute();
    let ended = 0;
    for (const row of rows) {
      if (!(await end(row, "terminated", reason))) continue;
      ended++;
      await ctx.deps.audit?.record({
        action: "deployment.terminate",
        target: { type: "challenge", id: row.challenge_id },
        detail: { deployment_id: row.id, user_id: userId, reason },
      });
    }
    return ended;
  }

  /** Terminates every active deployment whose time is up. */
  async function expireDue(now = nowSeconds()) {
    const due = await db
      .selectFrom("deployments")
      .select(["id", "user_id", "challenge_id"])
      .where("status", "in", ACTIVE)
      .where("expires_at", "<=", now)
      .execute();
    for (const d of due) {
      if (!(await end(d, "terminated", "The deployment expired."))) continue;
      log.info(`deployment ${d.id} expired`);
      await ctx.deps.audit?.record({
        action: "deployment.expire",
        target: { type: "challenge", id: d.challenge_id },
        detail: { deployment_id: d.id, user_id: d.user_id },
      });
    }
    return due.length;
  }

  return { admission, start, launch, extend, end, terminate, terminateAllForUser, expireDue };
}
export type Lifecycle = ReturnType<typeof createLifecycle>;
