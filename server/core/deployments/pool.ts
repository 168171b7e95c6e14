// The warm pool (docs/decisions/011-warm-pool.md): per challenge, deployments made and set up
// ahead of any start (network, hardened container, setup.sh run with its own random values), so
// a start claims one that is ready instead of waiting for the engine.
//
// A pooled deployment is a row of `pool_deployments`, never of `deployments`: it has no owner, so
// nothing that serves a user (the SSH gateway's resolve, the live channel, grading) can reach it.
// A claim deletes the pool row and writes the user's deployment row with the same id (the id the
// engine's labels carry) in one transaction, so the container belongs to exactly one of the two
// at every moment (reconciliation removes what belongs to neither). Once claimed it is an ordinary
// deployment: its expiry counts from the claim, and ending it removes it (never back to the pool).
//
// The worker calls `refill` every few seconds: it replaces pooled deployments left unclaimed
// longer than the idle limit, and starts fills (a few at a time) up to each challenge's size, as
// long as the host's capacity has room (capacity.ts). Maintenance mode stops the pool: no fill,
// and what is pooled goes (an operator drains the host; no start could claim it anyway); a hidden
// challenge gets no pool (only admins can start it, cold). Pooled deployments count against that
// capacity like any other; a person's start that finds the host full takes the room of pooled
// ones of other challenges (`evict`) before it is refused.
import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import { nowSeconds } from "#server/db/index.ts";
import type { Database, PoolDeploymentsTable } from "#server/db/schema.ts";
import type { Challenge } from "#server/library/challenges.ts";
import { maxLifetimeSeconds as engineMaxLifetime } from "#server/runtime/policy.ts";
import { provision, runSetup } from "#server/runtime/scenario.ts";
import { deploymentCost } from "#server/core/capacity.ts";
import type { DeploymentsDeps } from "./deps.ts";
import { ACTIVE, toError } from "./model.ts";

export type PooledRow = PoolDeploymentsTable;

/** The owner label of a pooled container: no user. Ownership lives in the database only (a claim
 *  cannot relabel a container); the gateway routes by deployment rows, which pooled ones lack. */
export const POOL_OWNER = "pool";
/** Fills at once in this process: each one is a container start and a setup.sh on a small host. */
const FILLS_AT_ONCE = 2;
/** After a fill of a challenge failed, its pool waits this long before the next try. */
const RETRY_AFTER_FAILURE_MS = 60_000;
/** After pooled deployments gave their room to a start, refills wait this long. */
const HOLD_AFTER_EVICT_MS = 10_000;
/** Margin between the end of a claimed deployment's longest life and the engine's hard stop. */
const GRACE_SECONDS = 60;

export interface PoolSize {
  challenge_id: string;
  /** Set up and waiting to be claimed. */
  ready: number;
  /** Being made or set up. */
  warming: number;
  /** What the pool aims for. */
  target: number;
}

export function createPool(deps: DeploymentsDeps, jobs: Map<string, Promise<void>>) {
  const { db, runtime, challenges, log, instance, maxLifetimeSeconds } = deps;
  const settings = deps.pool ?? { size: 0, idleSeconds: 3600 };
  /** The engine stops a container at most 6 h after its creation: a pooled one must still have a
   *  whole deployment's life ahead when it is claimed, which bounds how long it may wait. */
  const idleSeconds = Math.min(settings.idleSeconds, engineMaxLifetime - maxLifetimeSeconds - 2 * GRACE_SECONDS);
  const filling = new Set<string>();
  const retryAt = new Map<string, number>();
  let drained = false;
  let holdUntil = 0;
  if (idleSeconds <= 0 && [...challenges.values()].some((c) => targetOf(c) > 0)) {
    log.warn(
      `warm pool disabled: MAX_DEPLOYMENT_MINUTES leaves no time for a pooled deployment to wait within the engine's ${engineMaxLifetime / 3600} h limit`,
    );
  }

  function targetOf(challenge: Challenge): number {
    return challenge.pool ?? settings.size;
  }

  /** A pooled deployment can be claimed when it is set up and has a whole lifetime left. */
  const claimableFrom = (now: number) => now + maxLifetimeSeconds + GRACE_SECONDS;

  async function rows() {
    return db.selectFrom("pool_deployments").selectAll().execute();
  }

  /** Whether a start of this challenge would get a pooled deployment now (capacity: a claim takes
   *  no new room, it only moves a pooled one to its user). */
  async function claimable(challengeId: string, now = nowSeconds()) {
    const row = await db
      .selectFrom("pool_deployments")
      .select("id")
      .where("challenge_id", "=", challengeId)
      .where("status", "=", "ready")
      .where("hard_expires_at", ">=", claimableFrom(now))
      .executeTakeFirst();
    return Boolean(row);
  }

  /**
   * Takes a ready pooled deployment of the challenge, oldest first, and hands it to `adopt`, which
   * writes the user's deployment row with the pooled id in the same transaction (a failure there,
   * such as "already running", leaves it in the pool). Null when none is ready: start cold.
   */
  async function claim<T>(challengeId: string, adopt: (trx: Transaction<Database>, pooled: PooledRow) => Promise<T>, now = nowSeconds()): Promise<T | null> {
    const candidates = await db
      .selectFrom("pool_deployments")
      .selectAll()
      .where("challenge_id", "=", challengeId)
      .where("status", "=", "ready")
      .where("hard_expires_at", ">=", claimableFrom(now))
      .orderBy("ready_at", "asc")
      .limit(3)
      .execute();
    for (const pooled of candidates) {
      const adopted = await db.transaction().execute(async (trx) => {
        // The delete is the claim: of two starts (or replicas) racing for one, only one deletes it.
        const res = await trx.deleteFrom("pool_deployments").where("id", "=", pooled.id).where("status", "=", "ready").executeTakeFirst();
        if (Number(res.numDeletedRows) === 0) return { claimed: false as const };
        return { claimed: true as const, value: await adopt(trx, pooled) };
      });
      if (adopted.claimed) return adopted.value;
    }
    return null;
  }

  /** Replaces pooled deployments that waited too long, then starts fills up to each challenge's
   *  size while the capacity has room. Returns at once; the fills run in the background. */
  async function refill(now = nowSeconds()) {
    if (!runtime || drained || Date.now() < holdUntil) return;
    const hold = (await deps.poolHold?.()) ?? { maintenance: false, hidden: new Set<string>() };
    const withheld = (await rows()).filter((r) => hold.maintenance || hold.hidden.has(r.challenge_id));
    for (const r of withheld) {
      if (await discard(r.id))
        log.info(`pooled deployment ${r.id} (${r.challenge_id}) removed: ${hold.maintenance ? "maintenance mode" : "the challenge is hidden"}`);
    }
    if (hold.maintenance) return;
    const all = await rows();
    for (const stale of all.filter((r) => r.status === "ready" && (r.ready_at ?? r.created_at) + idleSeconds <= now)) {
      if (await discard(stale.id)) log.info(`pooled deployment ${stale.id} (${stale.challenge_id}) waited too long: replaced`);
    }
    if (idleSeconds <= 0) return;
    const pooled = new Map<string, number>();
    for (const r of all) pooled.set(r.challenge_id, (pooled.get(r.challenge_id) ?? 0) + 1);
    for (const challenge of challenges.values()) {
      if (hold.hidden.has(challenge.id)) continue;
      let missing = targetOf(challenge) - (pooled.get(challenge.id) ?? 0);
      while (missing-- > 0 && filling.size < FILLS_AT_ONCE && Date.now() >= (retryAt.get(challenge.id) ?? 0)) {
        if (!(await roomFor(challenge))) return;
        await startFill(challenge, now);
      }
    }
  }

  /** Whether one more deployment of `challenge` fits in the capacity with every active and pooled one. */
  async function roomFor(challenge: Challenge) {
    if (deps.capacityBytes === undefined) return Date.now() >= holdUntil;
    const active = await db.selectFrom("deployments").select("challenge_id").where("status", "in", ACTIVE).execute();
    const pooled = await db.selectFrom("pool_deployments").select("challenge_id").execute();
    const taken = [...active, ...pooled].reduce((sum, d) => sum + deploymentCost(challenges.get(d.challenge_id)), 0);
    // Looked at again after the reads: a start may have taken pooled room meanwhile.
    return taken + deploymentCost(challenge) <= deps.capacityBytes && Date.now() >= holdUntil;
  }

  async function startFill(challenge: Challenge, now: number) {
    const id = randomUUID();
    const hardExpiresAt = now + maxLifetimeSeconds + idleSeconds + GRACE_SECONDS;
    await db
      .insertInto("pool_deployments")
      .values({
        id,
        challenge_id: challenge.id,
        status: "warming",
        container_id: null,
        scenario_values: null,
        created_at: now,
        ready_at: null,
        hard_expires_at: hardExpiresAt,
      })
      .execute();
    filling.add(id);
    const job = fill(id, challenge, hardExpiresAt).finally(() => {
      filling.delete(id);
      jobs.delete(id);
    });
    jobs.set(id, job);
  }

  /** Makes and sets up one pooled deployment; if its row was taken away meanwhile (drained,
   *  evicted), what was made is removed. */
  async function fill(id: string, challenge: Challenge, hardExpiresAt: number) {
    const rt = runtime!;
    const started = performance.now();
    try {
      const env = await provision(rt, challenge, { deploymentId: id, userId: POOL_OWNER, challengeId: challenge.id, instance }, new Date(hardExpiresAt * 1000));
      if (!(await update(id, { container_id: env.target.id }))) return void (await rt.removeDeployment(id));
      const { values } = await runSetup(rt, challenge, env);
      if (!(await update(id, { status: "ready", ready_at: nowSeconds(), scenario_values: JSON.stringify(values) })))
        return void (await rt.removeDeployment(id));
      retryAt.delete(challenge.id);
      log.debug(`pooled deployment ${id} (${challenge.id}) ready in ${Math.round(performance.now() - started)} ms`);
    } catch (e) {
      retryAt.set(challenge.id, Date.now() + RETRY_AFTER_FAILURE_MS);
      log.warn(`warm pool: making a deployment of ${challenge.id} failed (next try in ${RETRY_AFTER_FAILURE_MS / 1000}s): ${toError(e)}`);
      await db.deleteFrom("pool_deployments").where("id", "=", id).execute();
      await rt.removeDeployment(id).catch((err) => log.error(`removing failed pooled deployment ${id}`, err));
    }
  }

  async function update(id: string, values: Partial<PooledRow>) {
    const res = await db.updateTable("pool_deployments").set(values).where("id", "=", id).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Deletes a pooled deployment's row (so no one can claim it) and removes it from the engine. */
  async function discard(id: string, { background = false } = {}) {
    const res = await db.deleteFrom("pool_deployments").where("id", "=", id).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) return false;
    // A fill in flight notices its row is gone and removes what it made itself.
    if (!runtime || filling.has(id)) return true;
    const removal = runtime.removeDeployment(id).catch((e) => log.error(`removing pooled deployment ${id}`, e));
    if (background) {
      // Tracked like a job: shutdown waits for it, reconciliation leaves its containers alone.
      const job = removal.finally(() => jobs.delete(id));
      jobs.set(id, job);
    } else await removal;
    return true;
  }

  /** Gives up pooled deployments of other challenges, oldest first, until `bytes` are free (a
   *  person's start goes before a deployment nobody asked for yet). Returns the bytes freed. */
  async function evict(bytes: number, keepChallengeId?: string) {
    // The start that asks writes its row right after, under its locks; refills (which do not take
    // those locks) hold back meanwhile, or one could take the room back first (roomFor).
    holdUntil = Date.now() + HOLD_AFTER_EVICT_MS;
    const candidates = (await rows()).filter((r) => r.challenge_id !== keepChallengeId).sort((a, b) => a.created_at - b.created_at);
    let freed = 0;
    for (const r of candidates) {
      if (freed >= bytes) break;
      if (await discard(r.id, { background: true })) freed += deploymentCost(challenges.get(r.challenge_id));
    }
    if (freed) log.info(`warm pool: gave up ${Math.round(freed / 2 ** 20)} MiB of pooled deployments for a start`);
    return freed;
  }

  /**
   * Brings the pool and the engine into agreement (reconciliation.ts): a pooled deployment whose
   * container is not running, or whose fill was interrupted by a restart, is dropped. Returns the
   * ids still pooled, which reconciliation must not take for orphans. `seen`: the pool as read
   * (`snapshot`) before the deployments were; `discard` only removes a row still pooled.
   */
  async function reconcile(seen: PooledRow[], running: Set<string>) {
    const kept = new Set<string>();
    for (const r of seen) {
      if (jobs.has(r.id)) kept.add(r.id);
      else if (r.status === "ready" && running.has(r.id)) kept.add(r.id);
      else await discard(r.id);
    }
    return kept;
  }

  /** Removes every pooled deployment and stops refilling (shutdown, tests). */
  async function drain() {
    drained = true;
    for (const r of await rows()) await discard(r.id);
    while (filling.size) await Promise.allSettled([...filling].map((id) => jobs.get(id)));
  }

  /** The pool per challenge, for /metrics and the admin console: ready, warming and target. */
  async function sizes(): Promise<PoolSize[]> {
    const all = await rows();
    const ids = new Set([...[...challenges.values()].filter((c) => targetOf(c) > 0).map((c) => c.id), ...all.map((r) => r.challenge_id)]);
    return [...ids].sort().map((id) => {
      const mine = all.filter((r) => r.challenge_id === id);
      const c = challenges.get(id);
      return {
        challenge_id: id,
        ready: mine.filter((r) => r.status === "ready").length,
        warming: mine.filter((r) => r.status === "warming").length,
        target: c && idleSeconds > 0 ? targetOf(c) : 0,
      };
    });
  }

  /** Bytes of capacity the pool holds now (every row, warming or ready). */
  async function heldBytes() {
    return (await rows()).reduce((sum, r) => sum + deploymentCost(challenges.get(r.challenge_id)), 0);
  }

  return { claim, claimable, refill, evict, snapshot: rows, reconcile, drain, sizes, heldBytes, discard };
}
export type Pool = ReturnType<typeof createPool>;
