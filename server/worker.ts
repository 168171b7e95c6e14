// The worker role: at start, reconciles deployments with the engine (adopt, resume, clean up);
// then expires deployments on time and, less often, reconciles again (containers that stopped
// behind our back, orphans left by a crash of another process).
import type { Deployments } from "./core/deployments.ts";
import type { Logger } from "./logger.ts";

const EXPIRE_EVERY_MS = 1000;
// A container that dies behind our back (OOM of PID 1, an engine restart) is noticed within this.
const RECONCILE_EVERY_MS = 15_000;

export async function startWorker({ deployments, log }: { deployments: Deployments; log: Logger }) {
  try {
    await deployments.reconcile({ resume: true });
  } catch (e) {
    log.error("reconciling deployments at start failed (will retry)", e);
  }
  let running: Promise<unknown> = Promise.resolve();
  let lastReconcile = Date.now();
  let stopped = false;
  const tick = () => {
    running = (async () => {
      try {
        await deployments.expireDue();
        if (Date.now() - lastReconcile >= RECONCILE_EVERY_MS) {
          lastReconcile = Date.now();
          await deployments.reconcile();
        }
      } catch (e) {
        log.error("deployments worker", e);
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
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
