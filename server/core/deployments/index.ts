// Deployments: one user's running environment for one challenge, as one service composed of its
// parts: lifecycle.ts (start, extend, terminate, expiry; what a start must pass first is
// admission.ts), reconciliation.ts (rows and containers back into agreement), reads.ts, and
// ssh-access.ts (the SSH gateway's "where may this key go?"). No HTTP: the API, the live channel,
// the worker and the gateway call in.
import { createBootCaches } from "./boot-caches.ts";
import { createContext } from "./context.ts";
import type { DeploymentsDeps } from "./deps.ts";
import { createLifecycle } from "./lifecycle.ts";
import type { LiveMessage, SshEndpoint } from "./model.ts";
import { createReads } from "./reads.ts";
import { createReconciliation } from "./reconciliation.ts";
import { createReset } from "./reset.ts";
import { createSshAccess } from "./ssh-access.ts";

export type { Applicant, AdmissionStep, AdmissionSteps, CapacityRequest, DeploymentsDeps, PoolHold, Replica } from "./deps.ts";
export { ACTIVE, type DeploymentRow, type DeploymentView, type LiveMessage, type SshDetails, type SshEndpoint } from "./model.ts";
export type { OfferedKey, Refusal, Resolve, Target } from "./ssh-access.ts";

export function createDeployments(deps: DeploymentsDeps) {
  const ctx = createContext(deps);
  const lifecycle = createLifecycle(ctx);
  const { reconcile } = createReconciliation(ctx, lifecycle);
  const reads = createReads(ctx);
  const { reset } = createReset(ctx);
  const { resolve, targetOf } = createSshAccess(ctx);
  const { events, jobs } = ctx;

  return {
    events,
    /** Where users are told to connect (the gateway's port is known once it listens). */
    advertiseSsh(endpoint: SshEndpoint) {
      ctx.setSsh(endpoint);
    },
    /** The gateway's address and host key (null before it listens: no engine, no gateway). */
    sshEndpoint(): SshEndpoint | null {
      const ssh = ctx.ssh();
      return ssh.hostKeyFingerprint ? { ...ssh } : null;
    },
    /** The checks a start must pass, in order (admission.ts). */
    admission: lifecycle.admission,
    start: lifecycle.start,
    extend: lifecycle.extend,
    terminate: lifecycle.terminate,
    /** Fresh containers and a new setup, same expiry and ssh user (reset.ts). */
    reset,
    terminateAllForUser: lifecycle.terminateAllForUser,
    expireDue: lifecycle.expireDue,
    reconcile,
    activeDeployment: reads.activeDeployment,
    forChallenge: reads.forChallenge,
    get: reads.get,
    readyFor: reads.readyFor,
    environment: reads.environment,
    resolve,
    /** The owner's ready deployment as a shell target (the browser terminal's question). */
    targetOf,
    view: ctx.view,
    /** Subscribes to a deployment's live messages; returns the unsubscribe function. */
    subscribe(id: string, listener: (m: LiveMessage) => void) {
      events.on(`message:${id}`, listener);
      return () => void events.off(`message:${id}`, listener);
    },
    onEnded(listener: (deploymentId: string) => void) {
      events.on("ended", listener);
    },
    /** A deployment is being reset: its shells should close with that said (reset.ts). */
    onReset(listener: (deploymentId: string) => void) {
      events.on("reset", listener);
    },
    /** The warm pool (pool.ts). The worker calls `pool.refill()` on its tick; `pool.sizes()`
     *  gives ready / warming / target per challenge (for /metrics); `pool.drain()` empties it. */
    pool: { refill: ctx.pool.refill, sizes: ctx.pool.sizes, drain: ctx.pool.drain },
    /** Fills the runtime's caches for every challenge's image (boot: the first deployment of an
     *  image after a restart should not pay for them), yielding to starts (boot-caches.ts). */
    prepareRuntime: createBootCaches(deps, jobs),
    /** Resolves when every background deploy job in flight has finished. */
    async settled() {
      while (jobs.size) await Promise.allSettled([...jobs.values()]);
    },
    /** The row by id (owner checks are the caller's). */
    row: ctx.byId,
  };
}
export type Deployments = ReturnType<typeof createDeployments>;
