// The runtime: what the platform needs from an engine that runs deployments. Kept narrow on
// purpose (ContainerSSH's lesson) so a Kubernetes driver can implement the same contract and pass
// the same conformance suite (tests/runtime/conformance.ts). Hardening is not optional here: a
// driver applies the policy (policy.ts) to every container it creates; callers only choose the
// few things a scenario may vary.
import type { Readable, Writable } from "node:stream";

/** Who a container belongs to. Every container and network carries these as labels. */
export interface Owner {
  deploymentId: string;
  userId: string;
  challengeId: string;
  /** The platform installation that made it (one per DATA_DIR): reconciliation removes only its
   *  own orphans, so several installations (or test runs) can share one engine. */
  instance?: string;
}

/** A writable directory in an otherwise read-only root filesystem (bounded, see policy.ts). */
export interface WritableDir {
  path: string;
  /** Upper bound in bytes of what can be written below `path`. */
  sizeBytes: number;
  /** Copy the image's content of `path` in before the container is handed out (default true). */
  populate?: boolean;
  /** Octal mode of the directory itself, e.g. 0o1777 for /tmp (default: the image's, else 0o755). */
  mode?: number;
}

export interface ContainerSpec {
  owner: Owner;
  /** "target": the environment the user enters; "probe": a short-lived checker on its network;
   *  "grader": a short-lived checker that looks at a target from the side (its processes through
   *  `inspects`, its writable directories read-only through `readOnlyVolumesOf`); "copy": a
   *  short-lived copy of a target's disk (`copyOf`) that the platform boots to see what a reboot
   *  brings back (docs/decisions/008-grading-threat-model.md). */
  role: "target" | "probe" | "grader" | "copy";
  image: string;
  /** Name on the deployment network (DNS alias) and the shell's hostname. */
  hostname: string;
  /** The deployment's network (from createNetwork). */
  network: string;
  /** Hard expiry: the engine stops the container by itself at this time even if the platform is down. */
  expiresAt: Date;
  env?: Record<string, string>;
  /** Main process; default: sleep until the hard expiry. Always wrapped so the expiry holds. */
  command?: string[];
  /** Overrides of the policy's defaults, each within the policy's ceilings. */
  limits?: Partial<Limits>;
  /** Writable directories; default: policy.defaultWritable (for "probe": only /tmp). */
  writable?: WritableDir[];
  /** Capabilities added to the policy's base set; only names from policy.extraCapabilities
   *  (and, for the "grader" role, policy.graderCapabilities). */
  extraCapabilities?: string[];
  /** (graders) Look at this container's processes (id or name, same deployment) from outside: the
   *  grader sees them, they cannot see, signal or trace the grader. The grader's environment gets
   *  FL_TARGET_PID, the PID (in the grader's view) of the container's first process: its
   *  /proc/<pid>/root is the container's filesystem, /proc/<pid>/net its sockets, and the
   *  container's processes are those in that process's PID namespace. */
  inspects?: string;
  /** (graders) Share this container's network namespace (id or name, same deployment) instead of
   *  being a host of `network` (which must still be the deployment's): the grader reads routes,
   *  policy rules, traffic control and packet filters as that container's kernel holds them
   *  (the network capabilities read them), and that container cannot see its processes. */
  joinsNetworkOf?: string;
  /** Mount every writable directory of this container (id or name, same deployment) read-only at
   *  `/target<path>` (its /etc at /target/etc): the same live content, not a copy. */
  readOnlyVolumesOf?: string;
  /** (copies) Start with a copy of this container's writable directories (id or name, same
   *  deployment and image), taken now: contents, owners, modes, ACLs, sparse files as such. The
   *  directories in `fresh` start as the image's instead (a boot's empty /run and /tmp). */
  copyOf?: string;
  fresh?: string[];
  /** Extra labels (keys must start with "faultline."). */
  labels?: Record<string, string>;
}

export interface Limits {
  memoryBytes: number;
  /** Whole CPUs as a fraction, e.g. 0.5. */
  cpus: number;
  pids: number;
}

export type ContainerState = "created" | "running" | "exited" | "dead" | "unknown";

export interface ContainerInfo {
  id: string;
  name: string;
  image: string;
  state: ContainerState;
  exitCode?: number;
  /** Set when the kernel's OOM killer ended the main process. */
  oomKilled?: boolean;
  labels: Record<string, string>;
  owner: Owner;
  role: string;
  expiresAt?: Date;
  /** Address on the deployment network. */
  ip?: string;
  network?: string;
  createdAt: Date;
}

export interface NetworkInfo {
  id: string;
  name: string;
  owner: Owner;
  labels: Record<string, string>;
  /** Its addresses, e.g. "10.213.4.16/28". */
  subnet?: string;
}

export interface ExecOptions {
  command: string[];
  tty?: boolean;
  /** Attach stdin (default false: the process sees end of file). */
  stdin?: boolean;
  env?: Record<string, string>;
  user?: string;
  workdir?: string;
  /** Initial terminal size (TTY only). */
  cols?: number;
  rows?: number;
}

/** A running process inside a container. */
export interface ExecSession {
  readonly id: string;
  /** Present when `stdin: true`; end() it to send end of file. */
  readonly stdin: Writable | null;
  readonly stdout: Readable;
  /** With a TTY everything arrives on stdout and this stream just ends. */
  readonly stderr: Readable;
  resize(cols: number, rows: number): Promise<void>;
  /** Sends a signal to this exec's process and everything it started in its process session
   *  (daemons that left it with setsid, e.g. a service the user started, are spared). */
  signal(signal?: NodeJS.Signals): Promise<void>;
  /** Resolves with the exit code once the process has ended (128+n when killed by signal n). */
  wait(): Promise<number>;
}

export interface FileContent {
  content: Buffer;
  mode: number;
  size: number;
}

export interface Runtime {
  readonly name: string;
  /** Fails with a clear message when the engine cannot be reached. */
  ping(): Promise<void>;
  /** Which of these images (name:tag) the engine does not have (the health check's question). */
  missingImages(images: string[]): Promise<string[]>;
  /** Whether the host-side protection that NET_ADMIN/NET_RAW challenges need is in place (drivers
   *  whose isolation has one); says loudly when it is not. The worker asks at start. */
  hostGuardActive?(): Promise<boolean>;

  /** Computes ahead (at boot) what the first deployment of each image would otherwise compute
   *  lazily, so it starts as fast as the next ones. Optional; failures are the driver's to log. */
  prepare?(images: { image: string; writable?: WritableDir[] }[]): Promise<void>;

  /** A private network for one deployment: no route to the host, other deployments or outside.
   *  `purpose` names a second one of the same deployment (a boot copy's own network). */
  createNetwork(owner: Owner, purpose?: string): Promise<NetworkInfo>;
  removeNetwork(nameOrId: string): Promise<void>;
  listNetworks(labels?: Record<string, string>): Promise<NetworkInfo[]>;

  /** Creates, starts and prepares (writable directories filled) a hardened container. */
  createContainer(spec: ContainerSpec): Promise<ContainerInfo>;
  /** null when it does not exist (any more). */
  inspect(id: string): Promise<ContainerInfo | null>;
  /** Containers carrying all the given labels (always limited to faultline-managed ones). */
  list(labels?: Record<string, string>): Promise<ContainerInfo[]>;
  /** Removes the container with its volumes; missing is not an error. */
  remove(id: string): Promise<void>;

  exec(containerId: string, options: ExecOptions): Promise<ExecSession>;

  /** Reads a file through the engine (never by running a binary inside the container). */
  readFile(containerId: string, path: string, options?: { maxBytes?: number }): Promise<FileContent>;
  /** Writes a file through the engine into a writable directory of the container. */
  writeFile(containerId: string, path: string, content: Buffer | string, options?: { mode?: number; uid?: number; gid?: number }): Promise<void>;

  /** Removes every container and network of a deployment. */
  removeDeployment(deploymentId: string): Promise<void>;
}

export class RuntimeError extends Error {
  constructor(
    message: string,
    readonly code: "unavailable" | "not_found" | "invalid" | "limit" | "failed" = "failed",
  ) {
    super(message);
    this.name = "RuntimeError";
  }
}
