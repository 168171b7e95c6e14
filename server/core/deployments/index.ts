// Deployments: one user's running environment for one challenge, as one service composed of its
// parts: lifecycle.ts (start, extend, terminate, expiry; what a start must pass first is
// admission.ts), reconciliation.ts (rows and containers back into agreement), reads.ts, and
// ssh-access.ts (the SSH gateway's "where may this key go?"). No HTTP: the API, the live channel,
// the worker and the gateway call in.
import { createContext, type DeploymentsDeps } from "./context.ts";
import { createLifecycle } from "./lifecycle.ts";
import type { LiveMessage, SshEndpoint } from "./model.ts";
import { createReads } from "./reads.ts";
import { createReconciliation } from "./reconciliation.ts";
import { createSshAccess } from "./ssh-access.ts";

export type { Applicant, AdmissionStep, AdmissionSteps, CapacityRequest } from "./admission.ts";
export type { DeploymentsDeps } from "./context.ts";
export { ACTIVE, type DeploymentRow, type DeploymentView, type LiveMessage, type SshDetails, type SshEndpoint } from "./model.ts";
export type { OfferedKey, Refusal, Resolve, Target } from "./ssh-access.ts";

export function createDeployments(deps: DeploymentsDeps) {
  const ctx = createContext(deps);
  const lifecycle = createLifecycle(ctx);
  const { reconcile } = createReconciliation(ctx, lifecycle);
  const reads = createReads(ctx);
  const { resolve } = createSshAccess(ctx);
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
    terminateAllForUser: lifecycle.terminateAllForUser,
    expireDue: lifecycle.expireDue,
    reconcile,
    activeDeployment: reads.activeDeployment,
    forChallenge: reads.forChallenge,
    get: reads.get,
    readyFor: reads.readyFor,
    environment: reads.environment,
    resolve,
    view: ctx.view,
    /** Subscribes to a deployment's live messages; returns the unsubscribe function. */
    subscribe(id: string, listener: (m: LiveMessage) => void) {
      events.on(`message:${id}`, listener);
      return () => void events.off(`message:${id}`, listener);
    },
    onEnded(listener: (deploymentId: string) => void) {
      events.on("ended", listener);
    },
    /** Resolves when every background deploy job in flight has finished. */
    async settled() {
      while (jobs.size) await Promise.allSettled([...jobs.values()]);
    },
    /** The row by id (owner checks are the caller's). */
    row: ctx.byId,
  };
}
export type Deployments = ReturnType<typeof createDeployments>;
