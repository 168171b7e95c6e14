// Admission control (security review R1): free accounts are cheap, host memory is not. The memory
// limits of all active deployments, plus what each costs the host outside its limit, must fit in
// the configured capacity (CAPACITY_MEMORY_PERCENT of the host's memory, or CAPACITY_MEMORY_MB).
// Limits, not current use, are what is added up: a deployment may grow to its limit at any time
// (its writable directories are tmpfs, counted in the same limit).
import type { Challenge } from "#server/library/challenges.ts";
import { clampLimits } from "#server/runtime/policy.ts";

const MiB = 1024 * 1024;
/** Host memory an idle deployment takes outside its memory limit, measured by bench/idle-memory.ts
 *  (npm run bench:idle): the copy of its writable directories (tmpfs pages written by dockerd
 *  when it fills them, so charged to dockerd's cgroup and to no deployment's limit; about 10 MiB
 *  for the images here), its containerd shim (about 3.3 MiB), the engine's bookkeeping (about
 *  1.3 MiB) and kernel memory for its network namespace, bridge and mounts. */
export const DEPLOYMENT_OVERHEAD_BYTES = 16 * MiB;

/** What one deployment of `challenge` may take from the host at most. */
export function deploymentCost(challenge: Pick<Challenge, "limits"> | undefined): number {
  return clampLimits(challenge?.limits).memoryBytes + DEPLOYMENT_OVERHEAD_BYTES;
}

/** The refusal when the host is full: when to come back is the earliest end of a deployment. */
export function fullMessage(expiries: number[], now: number): string {
  const soonest = expiries.length ? Math.min(...expiries) : now;
  const minutes = Math.max(1, Math.ceil((soonest - now) / 60));
  return `faultline is full right now. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
