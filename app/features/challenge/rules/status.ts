// Which controls a deployment's status allows on the challenge page, and how each status reads.
// The statuses themselves are the API's (shared/contract/deployments.ts).
import { type DeploymentStatus, isActiveStatus } from "#shared/contract/deployments.ts";

/** A deployment that exists and holds (or is getting) a container. */
export const isActive = (s: DeploymentStatus) => isActiveStatus(s);
/** On its way to ready: the page keeps refreshing itself (no JavaScript) or listening (JavaScript). */
export const isStarting = (s: DeploymentStatus) => s === "queued" || s === "deploying" || s === "setting_up" || s === "resetting";

/** Start (and Retry) only when nothing runs: idle, failed or terminated. */
export const canStart = (s: DeploymentStatus) => s === "idle" || s === "failed" || s === "terminated";
/** Extend only a ready deployment. */
export const canExtend = (s: DeploymentStatus) => s === "ready";
/** Terminate whatever is active. */
export const canTerminate = (s: DeploymentStatus) => isActive(s);

export const STATUS_LABELS: Record<DeploymentStatus, string> = {
  idle: "idle",
  queued: "queued",
  deploying: "deploying",
  setting_up: "setting up",
  ready: "ready",
  resetting: "resetting",
  failed: "failed",
  terminated: "terminated",
};
