// The deployment as the challenge page sees it, and how each message of the live channel
// (/ws/deployments/{id}; message shapes in docs/api.md, "Live channel") changes that view.
// Pure: the socket, timers and polling live in live-controller.ts.
import { type ChallengeDeployment, type DeploymentStatus, isDeploymentStatus, type SshDetails } from "#shared/contract/deployments.ts";

export interface DeploymentView {
  deploymentId: string | null;
  status: DeploymentStatus;
  expiresAt: string | null;
  ssh: SshDetails | null;
  /** Why the deployment failed (status failed). */
  errorMessage: string | null;
  /** A later error that did not take the container down. */
  warning: string | null;
  progress: number | null;
  progressMessage: string | null;
  logs: string[];
}

export const MAX_LOG_LINES = 200;

/** The view of the API's answer for one challenge's deployment (GET .../active-session). */
export function viewFromDeployment(d: ChallengeDeployment | null | undefined): DeploymentView {
  const status = d && isDeploymentStatus(d.status) ? d.status : "idle";
  return clearIfTerminated({
    deploymentId: d?.deployment_id ?? null,
    status,
    expiresAt: d?.expires_at ?? null,
    ssh: status === "ready" ? validSsh(d?.ssh_details) : null,
    errorMessage: status === "failed" ? (d?.error_message ?? null) : null,
    warning: null,
    progress: status === "ready" ? 100 : null,
    progressMessage: null,
    logs: [],
  });
}

/** One message of the live channel (or a legacy one that only carries a status). */
export type LiveMessage =
  | {
      type: "deployment_update";
      deployment_id?: string;
      status?: string;
      expires_at?: string | null;
      ssh_details?: SshDetails | null;
      error_message?: string | null;
    }
  | { type: "progress_update"; deployment_id?: string; status?: string; progress?: number; message?: string }
  | { type: "deployment_ready"; deployment_id?: string; status?: "ready"; expires_at?: string | null; ssh_details?: SshDetails | null }
  | { type: "deployment_error"; deployment_id?: string; status?: "failed"; error?: string | null }
  | { type: "deployment_logs"; deployment_id?: string; line?: string }
  | { type?: undefined; deployment_id?: string; status: string; expires_at?: string | null; ssh_details?: SshDetails | null; error_message?: string | null };

/** Reads a WebSocket frame; anything that is not a known message (or a legacy status) is null. */
export function parseLiveMessage(raw: unknown): LiveMessage | null {
  let v: unknown = raw;
  if (typeof raw === "string") {
    try {
      v = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return null;
  const m = v as Record<string, unknown>;
  const known = ["deployment_update", "progress_update", "deployment_ready", "deployment_error", "deployment_logs"];
  if (typeof m.type === "string" && known.includes(m.type)) return m as unknown as LiveMessage;
  if (isDeploymentStatus(m.status)) {
    const { type: _ignored, ...rest } = m;
    return rest as unknown as LiveMessage;
  }
  return null;
}

function validSsh(d: unknown): SshDetails | null {
  if (!d || typeof d !== "object") return null;
  const s = d as Record<string, unknown>;
  if (typeof s.ssh_host !== "string" || !s.ssh_host) return null;
  return {
    ssh_host: s.ssh_host,
    ssh_port: typeof s.ssh_port === "number" ? s.ssh_port : null,
    ssh_user: typeof s.ssh_user === "string" ? s.ssh_user : null,
    ...(typeof s.host_key_fingerprint === "string" && /^SHA256:[A-Za-z0-9+/]+$/.test(s.host_key_fingerprint)
      ? { host_key_fingerprint: s.host_key_fingerprint }
      : {}),
  };
}

/** Terminated clears the timer, the SSH details and the deployment itself (live-view.test.ts,
 *  "terminated clears the timer, the ssh details and the deployment"). */
function clearIfTerminated(v: DeploymentView): DeploymentView {
  if (v.status !== "terminated" && v.status !== "idle") return v;
  return { ...v, deploymentId: null, expiresAt: null, ssh: null, progress: null, progressMessage: null, warning: null, errorMessage: null };
}

export const stillAccessibleWarning = (error: string | null | undefined) =>
  `${error ? `${error.replace(/\.$/, "")}. ` : ""}The deployment reported an error, but your container is still accessible.`;

/** How one live message changes the page's view of the deployment. */
export function reduceLive(view: DeploymentView, msg: LiveMessage): DeploymentView {
  // A message about another deployment (an old socket, a stale poll) changes nothing.
  if (msg.deployment_id && view.deploymentId && msg.deployment_id !== view.deploymentId) return view;
  const deploymentId = view.deploymentId ?? msg.deployment_id ?? null;
  switch (msg.type) {
    case "progress_update": {
      const status = isDeploymentStatus(msg.status) ? msg.status : view.status;
      const progress = typeof msg.progress === "number" ? Math.max(0, Math.min(100, msg.progress)) : view.progress;
      return clearIfTerminated({ ...view, deploymentId, status, progress, progressMessage: msg.message ?? view.progressMessage });
    }
    case "deployment_ready":
      return {
        ...view,
        deploymentId,
        status: "ready",
        expiresAt: msg.expires_at ?? view.expiresAt,
        ssh: validSsh(msg.ssh_details) ?? view.ssh,
        errorMessage: null,
        progress: 100,
      };
    case "deployment_error":
      // Once SSH details are known the container is up: an error only warns, unless the server
      // already said the deployment failed (then it is the reason why). live-view.test.ts pins both.
      if (view.ssh && view.status !== "failed") return { ...view, deploymentId, warning: stillAccessibleWarning(msg.error) };
      return { ...view, deploymentId, status: "failed", ssh: null, errorMessage: msg.error || view.errorMessage, progress: null };
    case "deployment_logs": {
      if (typeof msg.line !== "string") return view;
      const logs = [...view.logs, msg.line];
      return { ...view, deploymentId, logs: logs.length > MAX_LOG_LINES ? logs.slice(-MAX_LOG_LINES) : logs };
    }
    default: {
      // deployment_update, and legacy messages that carry only a status.
      if (!isDeploymentStatus(msg.status)) return view;
      const status = msg.status;
      // A failed deployment's container is gone: its SSH details no longer lead anywhere.
      const ssh = status === "failed" ? null : msg.ssh_details === undefined || msg.ssh_details === null ? view.ssh : (validSsh(msg.ssh_details) ?? view.ssh);
      return clearIfTerminated({
        ...view,
        deploymentId,
        status,
        expiresAt: msg.expires_at ?? view.expiresAt,
        ssh,
        errorMessage: status === "failed" ? (msg.error_message ?? view.errorMessage) : null,
        progress: status === "ready" ? 100 : view.progress,
      });
    }
  }
}
