// What the page does when the live channel closes: reconnect with backoff (1 s doubling, capped
// at 30 s, at most 5 attempts), then poll every 5 s; a clean close or termination stops both.
// docs/api.md ("Live channel") describes the same policy.
import type { DeploymentStatus } from "#shared/contract/deployments.ts";

export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_CAP_MS = 30_000;
export const MAX_RECONNECTS = 5;
export const POLL_INTERVAL_MS = 5_000;
/** The reason the server gives when it closes a socket opened without a valid sign-in. */
export const AUTH_REQUIRED = "Authentication required";

/** Delay before reconnect attempt `attempt` (0-based): 1 s, 2 s, 4 s, ... capped at 30 s. */
export const reconnectDelay = (attempt: number) => Math.min(RECONNECT_CAP_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, attempt));

/** A normal closure (1000) is a clean close: the server is done with this deployment. */
export const isCleanClose = (code: number) => code === 1000;

export type CloseDecision = { kind: "stop" } | { kind: "reconnect"; delayMs: number } | { kind: "poll"; intervalMs: number };

/**
 * What to do when the live channel closes. `attempts` counts the reconnects already made since
 * the last successful open.
 */
export function decideOnClose(input: { code: number; reason?: string; attempts: number; status: DeploymentStatus }): CloseDecision {
  if (isCleanClose(input.code) || input.status === "terminated" || input.status === "idle") return { kind: "stop" };
  // The same credential would be refused again: the web's status route carries the sign-in instead.
  if (input.reason === AUTH_REQUIRED) return { kind: "poll", intervalMs: POLL_INTERVAL_MS };
  if (input.attempts < MAX_RECONNECTS) return { kind: "reconnect", delayMs: reconnectDelay(input.attempts) };
  return { kind: "poll", intervalMs: POLL_INTERVAL_MS };
}

/** Polling ends when the deployment is over: terminated, gone (idle) or failed. */
export const pollingDone = (status: DeploymentStatus) => status === "terminated" || status === "idle" || status === "failed";
