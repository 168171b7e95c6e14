// The worker role: at start, reconciles deployments with the engine (adopt, resume, clean up);
// then expires deployments on time and, less often, reconciles again (containers that stopped
// behind our back, orphans left by a crash of another process) and removes containers past their
// hard expiry whatever the database says.
//
// Several replicas on one PostgreSQL (server/db/cluster.ts): every worker replica runs this loop,
// but only the one holding the leadership does the work; the others try to take it on each round
// (every second), and one of them does within a second or two of the leader's death. A new
// leader's first round is the start's: reconcile, resuming deployments whose replica died.
import type { Deployments } from "./core/deployments/index.ts";
import type { Logger } from "./logger.ts";
import type { Runtime } from "./runtime/types.ts";

const EXPIRE_EVERY_MS = 1000;
// A container that dies behind our back (OOM of PID 1, an engine restart) is noticed within this.
const RECONCILE_EVERY_MS = 15_000;
const SWEEP_EVERY_MS = 5_000;
// The warm pool is topped up this often (server/core/deployments/pool.ts); fills run in the background.
const REFILL_EVERY_MS = 2_000;
// The new-challenge digest goes at most once a day per user (notifications.ts decides who is
// due); looking every few minutes spreads the mails over the day as users come due.
const DIGEST_EVERY_MS = 5 * 60_000;
// Shell recordings past the retention the privacy page states (server/core/recordings/store.ts).
const RECORDINGS_SWEEP_EVERY_MS = 60 * 60_000;

/**
 * Removes every managed container whose hard expiry (`faultline.expires-at`) has passed, whatever
 * the database says. The engine enforces that expiry by itself (`timeout -s KILL` as the main
 * process), but root inside can freeze that process with SIGSTOP; this holds from outside. A
 * target takes its whole deployment with it (reconcile then marks an active row lost); a probe or
 * grader only itself. Returns how many containers were overdue.
 */
export async function sweepOverdue(
  runtime: Runtime,
  log: Pick<Logger, "warn">,
  { now = Date.now(), labels = {} }: { now?: number; labels?: Record<string, string> } = {},
) {
  const overdue = (await runtime.list(labels)).filter((c) => c.expiresAt && c.expiresAt.getTime() <= now);
  for (const c of overdue) {
    log.warn(`container ${c.name} (deployment ${c.owner.deploymentId || "?"}) is past its hard expiry ${c.expiresAt!.toISOString()}: removing it`);
    if (c.role === "target" && c.owner.deploymentId) await runtime.removeDeployment(c.owner.deploymentId);
    else await runtime.remove(c.id);
  }
  return overdue.length;
}

export async function startWorker({
  deployments,
  log,
  runtime,
  digest,
  sweepRecordings,
  prepare = false,
  leadership = { lead: async () => true },
}: {
  deployments: Deployments;
  log: Logger;
  runtime?: Runtime | null;
  digest?: () => Promise<unknown>;
  sweepRecordings?: () => Promise<number>;
  /** Fill the runtime's caches for every challenge image now (PREPARE_AT_BOOT). */
  prepare?: boolean;
  /** Takes or confirms the worker's leadership among replicas (server/db/cluster.ts); without
   *  it this process always leads (one process per SQLite file). */
  leadership?: { lead(): Promise<boolean> };
}) {
  // Said at start (loudly when it is missing), not first when a challenge needs it.
  await runtime?.hostGuardActive?.().catch((e) => log.error("checking the host guard failed", e));
  // Boot caches (what the first deployment of each image computes lazily), in the background:
  // starts are served meanwhile and only wait for what they need themselves.
  const preparing = prepare ? deployments.prepareRuntime().catch((e) => log.error("preparing the runtime's caches failed", e)) : null;
  let running: Promise<unknown> = Promise.resolve();
  // The heartbeat the health check reads: when the loop last came round (a stuck loop stops it).
  let lastTick = Date.now();
  let lastReconcile = Date.now();
  let lastSweep = 0;
  let lastRefill = 0;
  let lastDigest = 0;
  let lastRecordingsSweep = 0;
  let stopped = false;
  let leading = false;
  /** Whether this replica leads now; on becoming the leader, the start's reconciliation. */
  async function leads(): Promise<boolean> {
    const now = await leadership.lead().catch(() => false);
    if (now && !leading) {
      try {
        await deployments.reconcile({ resume: true });
      } catch (e) {
        log.error("reconciling deployments at start failed (will retry)", e);
      }
      lastReconcile = Date.now();
    }
    leading = now;
    return now;
  }
  await leads();
  const tick = () => {
    running = (async () => {
      try {
        if (!(await leads())) return; // a follower: the leader does the rounds
        await deployments.expireDue();
        if (runtime && Date.now() - lastSweep >= SWEEP_EVERY_MS) {
          lastSweep = Date.now();
          await sweepOverdue(runtime, log);
        }
        if (Date.now() - lastRefill >= REFILL_EVERY_MS) {
          lastRefill = Date.now();
          await deployments.pool.refill();
        }
        if (Date.now() - lastReconcile >= RECONCILE_EVERY_MS) {
          lastReconcile = Date.now();
          await deployments.reconcile();
        }
        if (digest && Date.now() - lastDigest >= DIGEST_EVERY_MS) {
          lastDigest = Date.now();
          await digest();
        }
        if (sweepRecordings && Date.now() - lastRecordingsSweep >= RECORDINGS_SWEEP_EVERY_MS) {
          lastRecordingsSweep = Date.now();
          const removed = await sweepRecordings();
          if (removed) log.info(`recordings: removed ${removed} past their retention`);
        }
      } catch (e) {
        log.error("deployments worker", e);
      } finally {
        lastTick = Date.now();
      }
    })();
    return running;
  };
  // One tick at a time: the next is scheduled when the previous has finished.
  let timer: NodeJS.Timeout;
  const loop = () => {
    timer = setTimeout(() => void tick().then(() => !stopped && loop()), EXPIRE_EVERY_MS);
  };
  loop();
  return {
    /** When the loop last finished a round (epoch ms); followers' rounds count too. */
    lastTickAt: () => lastTick,
    /** Whether this replica leads the worker now. */
    leading: () => leading,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await preparing;
    },
  };
}
