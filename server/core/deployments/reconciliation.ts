// Reconciliation: brings the database and the engine into agreement (at start, after a crash,
// and periodically, from the worker). Ready deployments whose container runs are adopted as they
// are; ones whose container vanished or stopped are marked failed; ones interrupted half-way are
// deployed again from scratch; containers and networks of this installation that belong to no
// active deployment are removed.
import { LABEL } from "#server/runtime/policy.ts";
import type { DeploymentContext } from "./context.ts";
import type { Lifecycle } from "./lifecycle.ts";
import { ACTIVE } from "./model.ts";

const LOST = "The environment stopped unexpectedly. Start the challenge again.";

export function createReconciliation(ctx: DeploymentContext, lifecycle: Pick<Lifecycle, "expireDue" | "end" | "launch">) {
  const { db, runtime, log, instance } = ctx.deps;
  const { jobs, transition, publish } = ctx;

  /** `resume`: deploy again what a restart interrupted half-way (only the worker's first pass). */
  async function reconcile({ resume = false } = {}) {
    if (!runtime) return { adopted: 0, restarted: 0, lost: 0, orphans: 0 };
    await lifecycle.expireDue();
    // The pool is read before the deployments: a claim moves a row from one to the other, so read
    // in this order it is seen in at least one of them and never taken for an orphan.
    const poolRows = await ctx.pool.snapshot();
    const rows = await db.selectFrom("deployments").selectAll().where("status", "in", ACTIVE).execute();
    const containers = await runtime.list({ [LABEL.instance]: instance });
    const networks = await runtime.listNetworks({ [LABEL.instance]: instance });
    const running = new Set(containers.filter((c) => c.role === "target" && c.state === "running").map((c) => c.owner.deploymentId));
    let adopted = 0;
    let restarted = 0;
    let lost = 0;
    // Replicas on one database (server/db/cluster.ts): a deployment another live replica is
    // deploying right now is left to it; one whose replica died is started again, at any pass.
    const deployers = [...new Set(rows.flatMap((r) => (r.deployer ? [r.deployer] : [])))];
    const alive = (await ctx.deps.replica?.alive(deployers)) ?? new Set<string>();
    for (const row of rows) {
      if (jobs.has(row.id)) continue; // being deployed by this process right now
      if (row.status === "ready") {
        if (running.has(row.id)) adopted++;
        else if (await lifecycle.end(row, "failed", LOST)) {
          lost++;
          publish({ type: "deployment_error", deployment_id: row.id, status: "failed", error: LOST });
        }
      } else if ((resume || row.deployer) && !alive.has(row.deployer ?? "")) {
        // Interrupted by a restart half-way: whatever exists may be half made, so start over.
        await runtime.removeDeployment(row.id);
        const again = await transition(row.id, [row.status], { status: "queued", container_id: null, deployer: ctx.deps.replica?.id ?? null });
        if (again) {
          restarted++;
          lifecycle.launch(again);
        }
      }
    }
    // Pooled deployments (pool.ts) are nobody's yet: kept while their container runs.
    const pooled = await ctx.pool.reconcile(poolRows, running);
    const live = new Set([...rows.map((r) => r.id), ...pooled]);
    const orphans = new Set(
      [...containers.filter((c) => c.role !== "skeleton"), ...networks].map((x) => x.owner.deploymentId).filter((id) => id && !live.has(id) && !jobs.has(id)),
    );
    // Started by another replica after `rows` was read: its row is active by now, keep it.
    if (orphans.size) {
      const started = await db
        .selectFrom("deployments")
        .select("id")
        .where("id", "in", [...orphans])
        .where("status", "in", ACTIVE)
        .execute();
      for (const r of started) orphans.delete(r.id);
    }
    for (const id of orphans) await runtime.removeDeployment(id).catch((e) => log.error(`removing orphan deployment ${id}`, e));
    if (adopted || restarted || lost || orphans.size) {
      log.info(`reconciled deployments: ${adopted} adopted, ${restarted} restarted, ${lost} lost, ${orphans.size} orphans removed`);
    }
    return { adopted, restarted, lost, orphans: orphans.size };
  }

  return { reconcile };
}
