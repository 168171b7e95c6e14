// Small facts about the engine every part of the Docker driver uses: how it reports a missing
// object, how managed objects are found by label, whether it runs on this host.
import type Docker from "dockerode";
import { LABEL } from "#server/runtime/policy.ts";
import { RuntimeError, type Owner } from "#server/runtime/types.ts";

/** What the parts of the driver share: one engine client and the choices made at its creation. */
export interface DriverContext {
  docker: Docker;
  log: (message: string) => void;
  /** The engine runs on this host (its /proc is ours): needed to signal an exec's processes. */
  local: boolean;
  /** The OCI runtime of deployment containers (docs/decisions/007-sandboxing.md). */
  ociRuntime?: "runc" | "runsc";
  /** Where the driver keeps caches across restarts (writable.ts's skeletons); none: memory only. */
  cacheDir?: string;
  /** Whether the host guard is in place (host-guard.ts), cached. */
  hostGuardActive(): Promise<boolean>;
}

/** The HTTP status of an engine error (404: no such object, 409: conflict). */
export function statusOf(e: unknown): number | undefined {
  return (e as { statusCode?: number })?.statusCode;
}

/** Label filters for list calls: always limited to what faultline manages. */
export function labelFilters(labels: Record<string, string>) {
  return [`${LABEL.managed}=1`, ...Object.entries(labels).map(([k, v]) => `${k}=${v}`)];
}

export function checkOwner(owner: Owner) {
  for (const [k, v] of Object.entries(owner)) {
    if (typeof v !== "string" || !v.trim()) throw new RuntimeError(`owner.${k} is required`, "invalid");
  }
}

export function isLocalEngine() {
  const host = process.env.DOCKER_HOST;
  return !host || host.startsWith("unix://") || host.startsWith("/");
}

export function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}
