// What a deployment is, as stored and as shown: the row, the statuses that count as active, the
// owner's view, the live channel's messages, and the wording of failures a user may read.
import type { Selectable } from "kysely";
import type { DeploymentsTable, DeploymentStatus } from "#server/db/schema.ts";
import { RuntimeError } from "#server/runtime/types.ts";
import { ACTIVE_DEPLOYMENT_STATUSES, type DeploymentView, isActiveStatus } from "#shared/contract/deployments.ts";

export type DeploymentRow = Selectable<DeploymentsTable>;

/** The statuses that hold resources: the contract's list, so server and web agree. */
export const ACTIVE: DeploymentStatus[] = [...ACTIVE_DEPLOYMENT_STATUSES];
export const isActive = isActiveStatus;

export interface SshDetails {
  ssh_host: string;
  ssh_port: number;
  ssh_user: string;
  /** The gateway's host key as `ssh-keygen -l` prints it ("SHA256:..."), so a first connection
   *  can be checked instead of trusted blindly; absent until the gateway listens. */
  host_key_fingerprint?: string;
}

/** Where the SSH gateway listens and which host key it presents. */
export interface SshEndpoint {
  host: string;
  port: number;
  hostKeyFingerprint?: string;
  /** "ssh-ed25519 AAAA..." */
  hostPublicKey?: string;
}

/** What the owner sees of a deployment (never the scenario's values): the contract's shape. */
export type { DeploymentView } from "#shared/contract/deployments.ts";

/** Messages of the live channel (/ws/deployments/{id}); shapes in docs/api.md. */
export type LiveMessage =
  | ({ type: "deployment_update" } & Pick<DeploymentView, "deployment_id" | "status" | "expires_at" | "ssh_details" | "error_message">)
  | { type: "progress_update"; deployment_id: string; status: DeploymentStatus; progress: number; message: string }
  | ({ type: "deployment_ready" } & Pick<DeploymentView, "deployment_id" | "status" | "expires_at" | "ssh_details">)
  | { type: "deployment_error"; deployment_id: string; status: "failed"; error: string }
  | { type: "deployment_logs"; deployment_id: string; line: string };

export const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
export const toError = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A failure as the user may read it: runtime errors are ours and safe to show; anything else is
 *  summarised (engine messages can name host paths). */
export function publicError(e: unknown): string {
  if (e instanceof RuntimeError) {
    if (e.code === "unavailable") return "The challenge runtime is not reachable right now. Please retry in a minute.";
    if (e.code === "not_found") return `Setting up the environment failed: ${e.message}`;
    return `Setting up the environment failed: ${e.message.slice(0, 300)}`;
  }
  return "Setting up the environment failed. Please retry.";
}
