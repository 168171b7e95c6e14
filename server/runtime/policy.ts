// The hardening every deployment container gets, whatever the driver. Numbers and choices are
// explained in docs/decisions/003-runtime-docker.md.
import type { Limits, Owner, WritableDir } from "./types.ts";

export const LABEL = {
  managed: "faultline.managed",
  deployment: "faultline.deployment",
  user: "faultline.user",
  challenge: "faultline.challenge",
  role: "faultline.role",
  expiresAt: "faultline.expires-at",
  instance: "faultline.instance",
} as const;

export function ownerLabels(owner: Owner): Record<string, string> {
  return {
    [LABEL.managed]: "1",
    [LABEL.deployment]: owner.deploymentId,
    [LABEL.user]: owner.userId,
    [LABEL.challenge]: owner.challengeId,
    ...(owner.instance ? { [LABEL.instance]: owner.instance } : {}),
  };
}

export function ownerFromLabels(labels: Record<string, string>): Owner {
  return {
    deploymentId: labels[LABEL.deployment] ?? "",
    userId: labels[LABEL.user] ?? "",
    challengeId: labels[LABEL.challenge] ?? "",
    ...(labels[LABEL.instance] ? { instance: labels[LABEL.instance] } : {}),
  };
}

const MiB = 1024 * 1024;

export const defaultLimits: Limits = { memoryBytes: 512 * MiB, cpus: 0.5, pids: 256 };
/** What a challenge may ask for at most (2 cores / 24 GiB machines run several deployments). */
export const maxLimits: Limits = { memoryBytes: 2048 * MiB, cpus: 1, pids: 1024 };

/** What a root user fixing a system needs: file ownership and modes, switching users (services
 *  drop privileges), signalling processes, binding ports below 1024 inside its own namespace. */
export const baseCapabilities = ["CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "SETGID", "SETUID", "NET_BIND_SERVICE"];
/** What a challenge may add, named in its challenge.yaml. NET_ADMIN and NET_RAW let a root user
 *  change routes or forge frames, so they are only granted while the host guard (the firewall
 *  rule that drops everything arriving from deployment bridges) is in place. */
/** Never SYS_PTRACE (nor the ptrace call, seccomp/README.md): a traced service can run other code
 *  while it looks unchanged, and grading judges processes by how they look
 *  (docs/decisions/008-grading-threat-model.md). */
export const extraCapabilities = ["SYS_CHROOT", "AUDIT_WRITE", "NET_RAW", "NET_ADMIN"];
export const networkCapabilities = ["NET_RAW", "NET_ADMIN"];
/** What a grader container (role "grader", the platform's own code, never the user's) may add:
 *  reading /proc/<pid>/{exe,fd,maps,environ} of the target's processes, which it sees from the
 *  host's PID namespace (SYS_PTRACE: the target's processes hold capabilities the grader lacks,
 *  and services that switched users are not dumpable), and any file of the target whatever its
 *  mode (DAC_READ_SEARCH). Graders drop KILL: they look, never act. */
export const graderCapabilities = ["SYS_PTRACE", "DAC_READ_SEARCH"];

/** The root filesystem is read-only; these directories are writable, each a size-bounded tmpfs
 *  filled with the image's content at start. Their sum is the deployment's disk bound, and since
 *  tmpfs lives in memory, writes also count against the memory limit: nothing reaches the host's
 *  disk. */
export const defaultWritable: WritableDir[] = [
  { path: "/etc", sizeBytes: 32 * MiB },
  { path: "/var", sizeBytes: 128 * MiB },
  { path: "/root", sizeBytes: 32 * MiB, mode: 0o700 },
  { path: "/home", sizeBytes: 32 * MiB },
  { path: "/tmp", sizeBytes: 64 * MiB, mode: 0o1777, populate: false },
  { path: "/run", sizeBytes: 16 * MiB },
  { path: "/srv", sizeBytes: 32 * MiB },
  { path: "/opt", sizeBytes: 32 * MiB },
  { path: "/usr/local", sizeBytes: 16 * MiB },
];
export const probeWritable: WritableDir[] = [{ path: "/tmp", sizeBytes: 16 * MiB, mode: 0o1777, populate: false }];
/** Upper bound of the sum of writable sizes a challenge may ask for. */
export const maxWritableBytes = 1024 * MiB;

/** Longest life of any container, whatever its expiry says (extensions included). */
export const maxLifetimeSeconds = 6 * 3600;

export function clampLimits(requested: Partial<Limits> | undefined): Limits {
  const r = { ...defaultLimits, ...requested };
  return {
    memoryBytes: Math.min(Math.max(r.memoryBytes, 64 * MiB), maxLimits.memoryBytes),
    cpus: Math.min(Math.max(r.cpus, 0.1), maxLimits.cpus),
    pids: Math.min(Math.max(Math.floor(r.pids), 32), maxLimits.pids),
  };
}

/** Parses sizes such as "64m", "1g", "512k" or a number of bytes. */
export function parseSize(value: string | number): number {
  if (typeof value === "number") return value;
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)i?b?$/i.exec(value.trim());
  if (!m) throw new Error(`not a size: ${value}`);
  const unit = { "": 1, k: 1024, m: MiB, g: 1024 * MiB }[m[2]!.toLowerCase() as "" | "k" | "m" | "g"];
  return Math.round(Number(m[1]) * unit);
}

/** Names usable in Docker object names and Linux interface names. */
export function safeName(value: string): string {
  const s = value
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
  if (!s) throw new Error(`unusable name: ${JSON.stringify(value)}`);
  return s.slice(0, 63);
}
