// The Docker driver: the runtime over the Docker Engine API (dockerode; DOCKER_HOST or the
// default socket). Tested against dockerd 20.10 / API 1.41 by tests/runtime/docker.test.ts.
// Engine facts it works around are listed in docs/decisions/003-runtime-docker.md.
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { posix } from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { promisify } from "node:util";
import Docker from "dockerode";
import {
  LABEL,
  baseCapabilities,
  clampLimits,
  defaultWritable,
  extraCapabilities,
  graderCapabilities,
  maxLifetimeSeconds,
  maxWritableBytes,
  networkCapabilities,
  ownerFromLabels,
  ownerLabels,
  probeWritable,
  safeName,
} from "./policy.ts";
import { createExecWatcher } from "./docker-exec-watch.ts";
import { filterTar, firstEntry, packFile } from "./tar.ts";
import {
  RuntimeError,
  type ContainerInfo,
  type ContainerSpec,
  type ContainerState,
  type ExecOptions,
  type ExecSession,
  type FileContent,
  type NetworkInfo,
  type Owner,
  type Runtime,
  type WritableDir,
} from "./types.ts";

const run = promisify(execFile);

export interface DockerRuntimeOptions {
  docker?: Docker;
  /** Where deployment networks take their /28 subnets from (default 172.30.0.0/16). */
  subnetPool?: string;
  /** Look for the host firewall rule that drops what deployment bridges send to the host
   *  (scripts/docker.sh installs it; false: consider it absent). Default: when the engine is local. */
  hostGuard?: boolean;
  log?: (message: string) => void;
  /** Where problems an operator must act on go (default: standard error). */
  warn?: (message: string) => void;
  /** The OCI runtime of deployment containers: "runc" (the engine's default) or "runsc" (gVisor,
   *  registered with the engine by scripts/docker.sh; docs/decisions/007-sandboxing.md). */
  ociRuntime?: "runc" | "runsc";
}

let seccompJson: string | undefined;
/** The seccomp profile of every deployment container, compact, read once. */
export function seccompProfile(): string {
  seccompJson ??= JSON.stringify(JSON.parse(readFileSync(new URL("./seccomp/deployment.json", import.meta.url), "utf8")));
  return seccompJson;
}

/** Files Docker bind-mounts into /etc itself; copying them in would fail (and is not wanted). */
const ENGINE_MANAGED = new Set(["hostname", "hosts", "resolv.conf"]);
const BRIDGE_PREFIX = "fl-";

export function createDockerRuntime(options: DockerRuntimeOptions = {}): Runtime & { docker: Docker; hostGuardActive(): Promise<boolean> } {
  const docker = options.docker ?? new Docker();
  const log = options.log ?? (() => {});
  const local = isLocalEngine();
  const pool = parsePool(options.subnetPool ?? "172.30.0.0/16");
  const skeletonCache = new Map<string, Promise<{ tar: Buffer | null; mode?: number }>>();
  let guard: Promise<boolean> | null = null;
  const execs = createExecWatcher(docker, [`${LABEL.managed}=1`], log);

  const warn = options.warn ?? ((m: string) => console.error(`faultline: ${m}`));
  let guardCheckedAt = 0;

  /** Whether the host guard is in place. Read-only: the rule is installed by scripts/docker.sh
   *  (as root), never by this process, which may run unprivileged. Looked at again when the last
   *  look is a minute old (an operator may add or flush rules); a missing rule is said loudly. */
  function hostGuardActive(): Promise<boolean> {
    if (options.hostGuard === false || !local) return Promise.resolve(false);
    if (!guard || Date.now() - guardCheckedAt > 60_000) {
      guardCheckedAt = Date.now();
      guard = checkHostGuard(warn);
    }
    return guard;
  }

  async function ping() {
    try {
      await docker.ping();
    } catch (e) {
      throw new RuntimeError(`Docker engine not reachable (${process.env.DOCKER_HOST ?? "/var/run/docker.sock"}): ${(e as Error).message}. Start it with scripts/docker.sh.`, "unavailable");
    }
  }

  // ---------------------------------------------------------------- networks

  async function createNetwork(owner: Owner): Promise<NetworkInfo> {
    checkOwner(owner);
    await hostGuardActive();
    const name = networkName(owner.deploymentId);
    const existing = await findNetwork(name);
    if (existing) return existing;
    const bridge = BRIDGE_PREFIX + createHash("sha256").update(name).digest("hex").slice(0, 12);
    const labels = ownerLabels(owner);
    // A /28 of our own pool per deployment: Docker's default pools hold ~30 networks only.
    const start = parseInt(createHash("sha256").update(name).digest("hex").slice(0, 8), 16) % pool.count;
    let lastError: unknown;
    for (let i = 0; i < 64; i++) {
      const subnet = pool.subnet((start + i * 7919) % pool.count);
      try {
        const network = await docker.createNetwork({
          Name: name,
          Driver: "bridge",
          Internal: true,
          CheckDuplicate: true,
          Labels: labels,
          IPAM: { Driver: "default", Config: [{ Subnet: subnet }] },
          Options: {
            "com.docker.network.bridge.name": bridge,
            // The bridge gets no IPv4 address, so the host is not the containers' gateway:
            // nothing on the host answers them, whatever address it listens on.
            "com.docker.network.bridge.inhibit_ipv4": "true",
            "com.docker.network.bridge.enable_icc": "true",
            "com.docker.network.bridge.enable_ip_masquerade": "false",
          },
        });
        return { id: network.id, name, owner, labels };
      } catch (e) {
        lastError = e;
        const msg = (e as Error).message;
        if (/already exists/i.test(msg)) {
          const n = await findNetwork(name);
          if (n) return n;
        }
        if (!/overlap|pool/i.test(msg)) break;
      }
    }
    throw new RuntimeError(`could not create network ${name}: ${(lastError as Error)?.message}`, "failed");
  }

  async function findNetwork(name: string): Promise<NetworkInfo | null> {
    try {
      const info = await docker.getNetwork(name).inspect();
      const labels = info.Labels ?? {};
      if (labels[LABEL.managed] !== "1") throw new RuntimeError(`network ${name} exists and is not managed by faultline`, "invalid");
      return { id: info.Id, name: info.Name, owner: ownerFromLabels(labels), labels };
    } catch (e) {
      if (statusOf(e) === 404) return null;
      throw e;
    }
  }

  async function removeNetwork(nameOrId: string) {
    for (let attempt = 0; ; attempt++) {
      try {
        await docker.getNetwork(nameOrId).remove();
        return;
      } catch (e) {
        if (statusOf(e) === 404) return;
        // Endpoints of containers being removed can linger for a moment.
        if (attempt < 20 && /active endpoints/i.test((e as Error).message)) {
          await sleep(100);
          continue;
        }
        throw e;
      }
    }
  }

  async function listNetworks(labels: Record<string, string> = {}): Promise<NetworkInfo[]> {
    const list = await docker.listNetworks({ filters: { label: labelFilters(labels) } });
    return list.map((n) => ({ id: n.Id, name: n.Name, owner: ownerFromLabels(n.Labels ?? {}), labels: n.Labels ?? {} }));
  }

  // ---------------------------------------------------------------- containers

  async function createContainer(spec: ContainerSpec): Promise<ContainerInfo> {
    checkOwner(spec.owner);
    const hostname = safeHostname(spec.hostname);
    const limits = clampLimits(spec.limits);
    const caps = [...baseCapabilities];
    const allowed = spec.role === "grader" ? [...extraCapabilities, ...graderCapabilities] : extraCapabilities;
    for (const cap of spec.extraCapabilities ?? []) {
      const c = cap.toUpperCase().replace(/^CAP_/, "");
      if (!allowed.includes(c)) throw new RuntimeError(`capability ${cap} is not allowed`, "invalid");
      if (networkCapabilities.includes(c) && !(await hostGuardActive())) {
        throw new RuntimeError(`capability ${c} needs the host guard (iptables rule for ${BRIDGE_PREFIX}+ bridges), which is not active`, "invalid");
      }
      if (!caps.includes(c)) caps.push(c);
    }
    const writable = checkWritable(spec.writable ?? (spec.role === "target" ? defaultWritable : probeWritable));
    if ((spec.pidNamespaceOf || spec.readOnlyVolumesOf) && spec.role !== "grader") {
      throw new RuntimeError("pidNamespaceOf and readOnlyVolumesOf are for grader containers only", "invalid");
    }
    const pidPeer = spec.pidNamespaceOf ? await peerOf(spec.pidNamespaceOf, spec.owner, "pidNamespaceOf") : null;
    const volumePeer = spec.readOnlyVolumesOf ? await peerOf(spec.readOnlyVolumesOf, spec.owner, "readOnlyVolumesOf") : null;
    // The peer's writable directories are volumes (see below): mounting the same volume again
    // shows the same live tmpfs, read-only here. The engine has no noexec/nodev for volume mounts
    // and runc's read-only remount drops the volume's own nodev,nosuid (measured, decision 003);
    // no-new-privileges and an empty bounding set for setuid keep that harmless.
    const peerMounts = (volumePeer?.Mounts ?? [])
      .filter((m) => m.Type === "volume" && m.RW && m.Name)
      .map((m) => ({ Type: "volume" as const, Source: m.Name!, Target: posix.join("/target", m.Destination), ReadOnly: true }));
    if (peerMounts.length && writable.some((w) => w.path === "/target" || w.path.startsWith("/target/"))) {
      throw new RuntimeError("a writable directory below /target collides with readOnlyVolumesOf", "invalid");
    }
    const lifetime = Math.max(1, Math.min(maxLifetimeSeconds, Math.ceil((spec.expiresAt.getTime() - Date.now()) / 1000)));
    const expiresAt = new Date(Date.now() + lifetime * 1000);

    const image = await docker.getImage(spec.image).inspect().catch((e) => {
      if (statusOf(e) === 404) throw new RuntimeError(`image ${spec.image} not found (build it with npm run images)`, "not_found");
      throw e;
    });
    const network = await findNetwork(spec.network);
    if (!network) throw new RuntimeError(`network ${spec.network} not found`, "not_found");
    if (network.owner.deploymentId !== spec.owner.deploymentId) throw new RuntimeError(`network ${spec.network} belongs to another deployment`, "invalid");

    // The image's content of each writable directory, copied in after start (tmpfs volumes
    // lose what Docker's own copy-up writes: it mounts them, copies, and unmounts).
    const filled = writable.filter((w) => w.populate !== false).map((w) => w.path);
    const fillByPath = new Map((await skeletons(image.Id, filled)).map((f, i) => [filled[i]!, f]));
    const fills = writable.map((w) => fillByPath.get(w.path) ?? null);

    const labels: Record<string, string> = {
      ...Object.fromEntries(Object.entries(spec.labels ?? {}).filter(([k]) => k.startsWith("faultline.") && !Object.values(LABEL).includes(k as never))),
      ...ownerLabels(spec.owner),
      [LABEL.role]: spec.role,
      [LABEL.expiresAt]: expiresAt.toISOString(),
    };
    const suffix = spec.role === "target" ? hostname : `${spec.role}-${randomBytes(3).toString("hex")}`;
    const name = safeName(`fl-${spec.owner.deploymentId}-${suffix}`);
    const command = ["timeout", "-s", "KILL", `${lifetime}s`, ...(spec.command ?? ["sleep", "infinity"])];

    let container: Docker.Container;
    try {
      container = await docker.createContainer({
        name,
        Image: image.Id,
        Hostname: hostname,
        Env: Object.entries({ LANG: "C.UTF-8", ...spec.env }).map(([k, v]) => `${k}=${v}`),
        Cmd: command,
        Entrypoint: [],
        WorkingDir: "/",
        Labels: labels,
        StopSignal: "SIGKILL",
        HostConfig: {
          ...(options.ociRuntime === "runsc" ? { Runtime: "runsc" } : {}),
          Init: true,
          Privileged: false,
          ReadonlyRootfs: true,
          CapDrop: ["ALL"],
          CapAdd: caps,
          // Our seccomp allowlist replaces the engine's default (server/runtime/seccomp/README.md).
          SecurityOpt: ["no-new-privileges", `seccomp=${seccompProfile()}`],
          // The kernel's OOM killer picks a deployment before the platform (or anything else).
          OomScoreAdj: 500,
          Memory: limits.memoryBytes,
          MemorySwap: limits.memoryBytes,
          MemorySwappiness: 0,
          NanoCpus: Math.round(limits.cpus * 1e9),
          PidsLimit: limits.pids,
          ShmSize: 16 * 1024 * 1024,
          // No core files: a crash must not write the process's memory anywhere, nor run the
          // host's core_pattern helper.
          Ulimits: [
            { Name: "nofile", Soft: 4096, Hard: 4096 },
            { Name: "core", Soft: 0, Hard: 0 },
          ],
          NetworkMode: network.name,
          IpcMode: "private",
          ...(pidPeer ? { PidMode: `container:${pidPeer.Id}` } : {}),
          RestartPolicy: { Name: "no" },
          AutoRemove: false,
          // The user is root and can write to PID 1's stdout: no log may grow on the host's disk.
          LogConfig: { Type: "none", Config: {} },
          Mounts: [
            ...writable.map((w, i) => ({
              Type: "volume" as const,
              Source: "",
              Target: w.path,
              VolumeOptions: {
                NoCopy: true,
                Labels: labels,
                DriverConfig: {
                  Name: "local",
                  Options: { type: "tmpfs", device: "tmpfs", o: `size=${w.sizeBytes},mode=${(w.mode ?? fills[i]?.mode ?? 0o755).toString(8)},nodev,nosuid` },
                },
              },
            })),
            ...peerMounts,
          ],
        },
        NetworkingConfig: { EndpointsConfig: { [network.name]: { Aliases: [hostname] } } },
      });
    } catch (e) {
      if (statusOf(e) === 409) throw new RuntimeError(`a container named ${name} already exists`, "invalid");
      throw e;
    }
    try {
      await container.start();
      await Promise.all(writable.map((w, i) => (fills[i]?.tar ? container.putArchive(fills[i]!.tar!, { path: w.path }) : null)));
    } catch (e) {
      await container.remove({ force: true, v: true }).catch(() => {});
      throw e;
    }
    const info = await inspect(container.id);
    if (!info) throw new RuntimeError(`container ${name} vanished after start`, "failed");
    return info;
  }

  /** A container another one attaches to (grader): it must be a managed one of the same deployment. */
  async function peerOf(idOrName: string, owner: Owner, field: string) {
    let c: Docker.ContainerInspectInfo;
    try {
      c = await docker.getContainer(idOrName).inspect();
    } catch (e) {
      if (statusOf(e) === 404) throw new RuntimeError(`${field}: container ${idOrName} not found`, "not_found");
      throw e;
    }
    const labels = c.Config.Labels ?? {};
    if (labels[LABEL.managed] !== "1" || labels[LABEL.deployment] !== owner.deploymentId) {
      throw new RuntimeError(`${field}: container ${idOrName} is not part of deployment ${owner.deploymentId}`, "invalid");
    }
    if (!c.State.Running) throw new RuntimeError(`${field}: container ${idOrName} is not running`, "invalid");
    return c;
  }

  /** The image's content below each path as archives for putArchive, cached per image. */
  async function skeletons(imageId: string, paths: string[]) {
    const missing = paths.filter((p) => !skeletonCache.has(`${imageId}:${p}`));
    if (missing.length) {
      const batch = (async () => {
        const helper = await docker.createContainer({
          Image: imageId,
          Cmd: ["true"],
          Entrypoint: [],
          NetworkDisabled: true,
          Labels: { [LABEL.managed]: "1", [LABEL.role]: "skeleton" },
          HostConfig: { NetworkMode: "none", LogConfig: { Type: "none", Config: {} } },
        });
        try {
          return await Promise.all(
            missing.map(async (path) => {
              try {
                const stream = (await helper.getArchive({ path: `${path}/.` })) as unknown as Readable;
                const { tar, rootMode, entries } = await filterTar(stream, path, (n) => path === "/etc" && ENGINE_MANAGED.has(n));
                return { tar: entries > 1 ? tar : null, mode: rootMode !== undefined ? rootMode & 0o7777 : undefined };
              } catch (e) {
                if (statusOf(e) === 404) return { tar: null };
                throw e;
              }
            }),
          );
        } finally {
          await helper.remove({ force: true }).catch(() => {});
        }
      })();
      missing.forEach((p, i) => {
        const entry = batch.then((all) => all[i]!);
        entry.catch(() => skeletonCache.delete(`${imageId}:${p}`));
        skeletonCache.set(`${imageId}:${p}`, entry);
      });
    }
    return Promise.all(paths.map((p) => skeletonCache.get(`${imageId}:${p}`)!));
  }

  async function inspect(id: string): Promise<ContainerInfo | null> {
    let c: Docker.ContainerInspectInfo;
    try {
      c = await docker.getContainer(id).inspect();
    } catch (e) {
      if (statusOf(e) === 404) return null;
      throw e;
    }
    const labels = c.Config.Labels ?? {};
    const networks = c.NetworkSettings?.Networks ?? {};
    const [networkName] = Object.keys(networks);
    const state = c.State.Status as string;
    return {
      id: c.Id,
      name: c.Name.replace(/^\//, ""),
      image: c.Config.Image,
      state: (["created", "running", "exited", "dead"].includes(state) ? state : state === "paused" || state === "restarting" ? "running" : "unknown") as ContainerState,
      exitCode: c.State.Running ? undefined : c.State.ExitCode,
      oomKilled: c.State.OOMKilled,
      labels,
      owner: ownerFromLabels(labels),
      role: labels[LABEL.role] ?? "",
      expiresAt: labels[LABEL.expiresAt] ? new Date(labels[LABEL.expiresAt]!) : undefined,
      ip: networkName ? networks[networkName]!.IPAddress || undefined : undefined,
      network: networkName,
      createdAt: new Date(c.Created),
    };
  }

  async function list(labels: Record<string, string> = {}): Promise<ContainerInfo[]> {
    const rows = await docker.listContainers({ all: true, filters: { label: labelFilters(labels) } });
    return rows.map((r) => {
      const l = r.Labels ?? {};
      const networks = r.NetworkSettings?.Networks ?? {};
      const [networkName] = Object.keys(networks);
      return {
        id: r.Id,
        name: (r.Names[0] ?? "").replace(/^\//, ""),
        image: r.Image,
        state: (["created", "running", "exited", "dead"].includes(r.State) ? r.State : "unknown") as ContainerState,
        labels: l,
        owner: ownerFromLabels(l),
        role: l[LABEL.role] ?? "",
        expiresAt: l[LABEL.expiresAt] ? new Date(l[LABEL.expiresAt]!) : undefined,
        ip: networkName ? networks[networkName]!.IPAddress || undefined : undefined,
        network: networkName,
        createdAt: new Date(r.Created * 1000),
      };
    });
  }

  async function remove(id: string) {
    for (let attempt = 0; ; attempt++) {
      try {
        await docker.getContainer(id).remove({ force: true, v: true });
        return;
      } catch (e) {
        const status = statusOf(e);
        if (status === 404) return;
        if (status === 409 && attempt < 50) {
          // "removal already in progress": wait until it is gone.
          await sleep(100);
          continue;
        }
        throw e;
      }
    }
  }

  async function removeDeployment(deploymentId: string) {
    const containers = await list({ [LABEL.deployment]: deploymentId });
    await Promise.all(containers.map((c) => remove(c.id)));
    const networks = await listNetworks({ [LABEL.deployment]: deploymentId });
    await Promise.all(networks.map((n) => removeNetwork(n.id)));
    // A volume still mounted by another container (a grader's read-only view of the target) is
    // kept by the engine when its own container goes: remove what is left once all are gone.
    const { Volumes: volumes } = await docker.listVolumes({ filters: { label: labelFilters({ [LABEL.deployment]: deploymentId }) } });
    await Promise.all(
      (volumes ?? []).map((v) =>
        docker.getVolume(v.Name).remove().catch((e) => {
          if (statusOf(e) !== 404) throw e;
        }),
      ),
    );
  }

  // ---------------------------------------------------------------- exec

  async function exec(containerId: string, opts: ExecOptions): Promise<ExecSession> {
    if (!opts.command.length) throw new RuntimeError("exec needs a command", "invalid");
    const container = docker.getContainer(containerId);
    const tty = !!opts.tty;
    let ex: Docker.Exec;
    try {
      ex = await container.exec({
        Cmd: opts.command,
        AttachStdin: !!opts.stdin,
        AttachStdout: true,
        AttachStderr: true,
        Tty: tty,
        Env: opts.env ? Object.entries(opts.env).map(([k, v]) => `${k}=${v}`) : undefined,
        User: opts.user,
        WorkingDir: opts.workdir,
      });
    } catch (e) {
      const status = statusOf(e);
      if (status === 404) throw new RuntimeError(`container ${containerId} not found`, "not_found");
      if (status === 409) throw new RuntimeError(`container ${containerId} is not running`, "invalid");
      throw e;
    }
    const watched = await execs.watch(ex);
    let stream: NodeJS.ReadWriteStream & import("node:net").Socket;
    try {
      stream = (await ex.start({ hijack: true, stdin: !!opts.stdin, Tty: tty })) as unknown as NodeJS.ReadWriteStream & import("node:net").Socket;
    } catch (e) {
      watched.cancel();
      throw e;
    }
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    if (tty) {
      stream.pipe(stdout);
      stream.on("end", () => stderr.end());
    } else {
      demux(stream, stdout, stderr);
      stream.on("end", () => {
        stdout.end();
        stderr.end();
      });
    }
    stream.on("error", (e) => {
      stdout.destroy(e);
      stderr.destroy(e);
    });
    if (tty && opts.cols && opts.rows) {
      // API 1.41 has no ConsoleSize on exec start: size the terminal right after.
      await ex.resize({ w: opts.cols, h: opts.rows }).catch(() => {});
    }
    // The output can end before the process (it closed its descriptors), or stay open after it
    // (a daemon inherited them): the exit code comes from the watcher either way.
    stream.on("close", () => watched.outputEnded());
    stream.on("end", () => watched.outputEnded());

    let leader: ProcessId | null = null;
    let target: { id: string; initPid: number } | undefined;
    /** The exec's host PID and its start time (the process's identity: a PID can be reused),
     *  learned when first needed. The engine keeps an ended exec's PID in its record, so the
     *  session of a leader that has ended (background jobs of a shell that exited) is found too. */
    async function learnLeader() {
      // Until the engine has created the process its PID reads 0: ask again, backing off (a
      // loaded engine can take a second or more).
      for (let i = 0, delay = 10; i < 12 && !leader; i++, delay = Math.min(delay * 2, 1000)) {
        const info = await ex.inspect().catch(() => null);
        if (!info) return;
        if (info.Pid) {
          const st = info.Running ? statOf(info.Pid) : null;
          leader = { pid: info.Pid, start: st?.start ?? null };
          return;
        }
        if (!info.Running && info.ExitCode !== null) return;
        await sleep(delay);
      }
    }

    return {
      id: ex.id,
      stdin: opts.stdin ? stream : null,
      stdout,
      stderr,
      async resize(cols, rows) {
        if (!tty) return;
        await ex.resize({ w: cols, h: rows }).catch((e) => {
          if (statusOf(e) !== 404 && !/not running|no such exec/i.test((e as Error).message)) throw e;
        });
      },
      async signal(signal = "SIGKILL") {
        if (!local) throw new RuntimeError("signalling an exec needs the engine on this host (its /proc)", "invalid");
        // Under gVisor the host PID the engine reports is runsc's, not the process's: nothing of
        // the exec's session can be reached from the host (docs/decisions/007-sandboxing.md).
        if (options.ociRuntime === "runsc") throw new RuntimeError("signalling an exec is not supported under gVisor (runsc)", "invalid");
        if (!leader) await learnLeader();
        if (!leader) return;
        if (!target) {
          const c = await container.inspect();
          target = { id: c.Id, initPid: c.State.Pid };
        }
        const t = target;
        await killSession(leader, t, signal, (pids) => signalInside(t.id, pids, signal));
      },
      wait: () => watched.exit,
    };
  }
  /** Signals processes of a container by their PIDs inside it, through the engine: for a server
   *  that may not signal root's processes itself. `/bin/kill` is on the read-only root. */
  async function signalInside(containerId: string, pids: number[], signal: NodeJS.Signals) {
    const ex = await docker.getContainer(containerId).exec({
      Cmd: ["/bin/kill", "-s", signal.replace(/^SIG/, ""), "--", ...pids.map(String)],
      User: "0",
      AttachStdout: false,
      AttachStderr: false,
    });
    // Detached: the engine has started it when it answers; the answer's stream would keep a
    // connection (and this process) alive.
    const answer = (await ex.start({ Detach: true })) as unknown as Readable | undefined;
    answer?.destroy?.();
  }

  // ---------------------------------------------------------------- files

  async function readFileFrom(containerId: string, path: string, opts: { maxBytes?: number } = {}): Promise<FileContent> {
    const maxBytes = opts.maxBytes ?? 1024 * 1024;
    let p = posix.normalize(path);
    for (let hop = 0; hop < 8; hop++) {
      let stream: Readable;
      try {
        stream = (await docker.getContainer(containerId).getArchive({ path: p })) as unknown as Readable;
      } catch (e) {
        if (statusOf(e) === 404) throw new RuntimeError(`${path}: no such file in container`, "not_found");
        throw e;
      }
      const entry = await firstEntry(stream, maxBytes).catch((e: Error) => {
        throw new RuntimeError(`${path}: ${e.message}`, "limit");
      });
      if (!entry) throw new RuntimeError(`${path}: no such file in container`, "not_found");
      if (entry.type === "symlink" && entry.linkname) {
        p = posix.resolve(posix.dirname(p), entry.linkname);
        continue;
      }
      if (entry.type !== "file") throw new RuntimeError(`${path} is not a regular file (${entry.type})`, "invalid");
      return { content: entry.content, mode: entry.mode, size: entry.size };
    }
    throw new RuntimeError(`${path}: too many levels of symbolic links`, "invalid");
  }

  async function writeFileTo(containerId: string, path: string, content: Buffer | string, opts: { mode?: number; uid?: number; gid?: number } = {}) {
    const p = posix.normalize(path);
    if (!p.startsWith("/") || p.endsWith("/")) throw new RuntimeError(`not an absolute file path: ${path}`, "invalid");
    const archive = await packFile(posix.basename(p), Buffer.isBuffer(content) ? content : Buffer.from(content), opts);
    try {
      await docker.getContainer(containerId).putArchive(archive, { path: posix.dirname(p) });
    } catch (e) {
      const status = statusOf(e);
      if (status === 404) throw new RuntimeError(`${posix.dirname(p)}: no such directory in container`, "not_found");
      if (status === 403 || /read-only/i.test((e as Error).message)) throw new RuntimeError(`${p}: not in a writable directory`, "invalid");
      throw e;
    }
  }

  return {
    name: "docker",
    docker,
    hostGuardActive,
    ping,
    createNetwork,
    removeNetwork,
    listNetworks,
    createContainer,
    inspect,
    list,
    remove,
    removeDeployment,
    exec,
    readFile: readFileFrom,
    writeFile: writeFileTo,
  };
}

// ---------------------------------------------------------------- helpers

export function networkName(deploymentId: string) {
  return safeName(`fl-${deploymentId}`);
}

function checkOwner(owner: Owner) {
  for (const [k, v] of Object.entries(owner)) {
    if (typeof v !== "string" || !v.trim()) throw new RuntimeError(`owner.${k} is required`, "invalid");
  }
}

function safeHostname(name: string) {
  const h = name.toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(h)) throw new RuntimeError(`not a valid hostname: ${name}`, "invalid");
  return h;
}

function checkWritable(dirs: WritableDir[]): WritableDir[] {
  let total = 0;
  const seen = new Set<string>();
  for (const d of dirs) {
    const p = posix.normalize(d.path);
    if (!p.startsWith("/") || p === "/" || /^\/(proc|sys|dev)(\/|$)/.test(p) || p !== d.path.replace(/\/+$/, "")) {
      throw new RuntimeError(`writable directory not allowed: ${d.path}`, "invalid");
    }
    if (seen.has(p)) throw new RuntimeError(`writable directory listed twice: ${p}`, "invalid");
    seen.add(p);
    if (!(d.sizeBytes > 0)) throw new RuntimeError(`writable directory ${p} needs a size`, "invalid");
    total += d.sizeBytes;
  }
  if (total > maxWritableBytes) throw new RuntimeError(`writable directories add up to ${total} bytes, more than ${maxWritableBytes}`, "invalid");
  return dirs;
}

/** Splits the engine's multiplexed exec stream (frames: 8-byte header with the stream type and the
 *  length) into stdout and stderr, pausing the source while a destination is full. docker-modem's
 *  demuxStream ignores back-pressure: a command writing fast to a slow reader (an SSH client)
 *  was buffered in this process without bound (gigabytes within seconds). */
function demux(source: Readable, stdout: PassThrough, stderr: PassThrough) {
  let pending: Buffer = Buffer.alloc(0);
  let waiting = 0;
  const drained = () => {
    if (--waiting === 0) source.resume();
  };
  source.on("data", (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 8) {
      const length = pending.readUInt32BE(4);
      if (pending.length < 8 + length) break;
      const target = pending[0] === 2 ? stderr : stdout;
      const payload = pending.subarray(8, 8 + length);
      pending = pending.subarray(8 + length);
      if (!target.write(payload)) {
        waiting++;
        target.once("drain", drained);
      }
    }
    if (waiting > 0) source.pause();
  });
}

function labelFilters(labels: Record<string, string>) {
  return [`${LABEL.managed}=1`, ...Object.entries(labels).map(([k, v]) => `${k}=${v}`)];
}

function statusOf(e: unknown): number | undefined {
  return (e as { statusCode?: number })?.statusCode;
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

function isLocalEngine() {
  const host = process.env.DOCKER_HOST;
  return !host || host.startsWith("unix://") || host.startsWith("/");
}

function parsePool(cidr: string) {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(cidr);
  if (!m) throw new Error(`subnet pool must be an IPv4 CIDR: ${cidr}`);
  const bits = Number(m[5]);
  if (bits > 26) throw new Error(`subnet pool ${cidr} is too small`);
  const base = ((Number(m[1]) << 24) | (Number(m[2]) << 16) | (Number(m[3]) << 8) | Number(m[4])) >>> 0;
  const count = 2 ** (28 - bits);
  return {
    count,
    subnet(i: number) {
      const a = (base + i * 16) >>> 0;
      return `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}/28`;
    },
  };
}

interface ProcessId {
  pid: number;
  /** Field 22 of /proc/<pid>/stat: with the PID, it names one process (PIDs are reused). null:
   *  the process had already ended when its PID was learned. */
  start: string | null;
}

/** Signals an exec'd process and every process of its session (the engine makes each exec a
 *  session leader), on this host. Processes that left the session (daemons: setsid) are spared.
 *  Only the container's own processes are looked at (the member list of its cgroup, read from the
 *  host; the whole of /proc only when that list cannot be found), and each is signalled only
 *  while its PID still names the same process (same start time) as when it was found.
 *  `denied`: when this process may not signal them (it runs unprivileged, in the docker group),
 *  the PIDs are handed over with their numbers inside the container's PID namespace. */
async function killSession(leader: ProcessId, container: { id: string; initPid: number }, signal: NodeJS.Signals, denied: (nsPids: number[]) => Promise<void>) {
  const now = statOf(leader.pid);
  // The leader's PID names another process now (or, for a leader known to have ended, any live
  // process): the kernel reuses a PID only once no process uses it as its session id any more,
  // so nothing of this exec's session is left to signal.
  if (now && (leader.start === null ? now.state !== "Z" : now.start !== leader.start)) return;
  const members = (await cgroupMembers(leader.pid, container.id)) ?? (await cgroupMembers(container.initPid, container.id));
  const candidates = members ?? (await readdir("/proc")).filter((n) => /^\d+$/.test(n)).map(Number);
  const targets: { pid: number; start: string }[] = [];
  for (const pid of candidates) {
    const st = statOf(pid);
    if (!st || st.session !== leader.pid) continue;
    if (!members && !(await readFile(`/proc/${pid}/cgroup`, "utf8").catch(() => "")).includes(container.id)) continue;
    targets.push({ pid, start: st.start });
  }
  const refused: number[] = [];
  for (const t of targets) {
    // Checked again right before kill(2), synchronously (nothing else runs in this process in
    // between): a PID freed and reused since the scan is not signalled. What is left is the
    // instant between this read and the signal; pidfd_send_signal would close it, but Node has no
    // binding for it. A PID cannot be reused while it is a zombie, i.e. until its parent (inside
    // the container, or tini) reaped it.
    if (statOf(t.pid)?.start !== t.start) continue;
    try {
      process.kill(t.pid, signal);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EPERM") refused.push(t.pid);
    }
  }
  if (refused.length) {
    const inside = refused.map(nsPidOf).filter((p): p is number => p !== null);
    if (inside.length) await denied(inside);
  }
}

function statOf(pid: number): { state: string; session: number; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0]!, session: Number(fields[3]), start: fields[19]! };
  } catch {
    return null;
  }
}

/** The PIDs in the same cgroup as `pid` when that cgroup is the container's (cgroup v1 `pids`
 *  hierarchy, or v2); null when it cannot be told. Reading it needs no privilege. */
async function cgroupMembers(pid: number, containerId: string): Promise<number[] | null> {
  const text = await readFile(`/proc/${pid}/cgroup`, "utf8").catch(() => "");
  const line = text.split("\n").find((l) => /^\d+:pids:/.test(l)) ?? text.split("\n").find((l) => l.startsWith("0::"));
  if (!line || !line.includes(containerId)) return null;
  const path = line.slice(line.indexOf(":", line.indexOf(":") + 1) + 1);
  const dir = line.startsWith("0::") ? `/sys/fs/cgroup${path}` : `/sys/fs/cgroup/pids${path}`;
  const procs = await readFile(`${dir}/cgroup.procs`, "utf8").catch(() => null);
  return procs === null ? null : procs.split("\n").filter(Boolean).map(Number);
}

/** The PID of a host process inside its own PID namespace (the last NSpid field). */
function nsPidOf(pid: number): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("NSpid:"));
    const last = line?.trim().split(/\s+/).at(-1);
    return last && /^\d+$/.test(last) ? Number(last) : null;
  } catch {
    return null;
  }
}

/** The host guard: `iptables -I INPUT -i fl-+ -j DROP` (and ip6tables) drops everything
 *  deployment bridges send to the host itself (defence in depth behind the address-less bridge;
 *  it matters once a challenge is granted NET_ADMIN or NET_RAW). Checked with `-C`, which changes
 *  nothing but needs CAP_NET_ADMIN: an unprivileged server asks `sudo -n` for exactly that check
 *  (scripts/up.sh installs a sudoers rule for FAULTLINE_USER allowing only it); without such a
 *  rule it cannot see the firewall and the guard counts as absent (fail closed). */
export async function checkHostGuard(warn: (m: string) => void): Promise<boolean> {
  const rule = ["INPUT", "-i", `${BRIDGE_PREFIX}+`, "-j", "DROP"];
  const asRoot = process.getuid?.() === 0;
  const missing: string[] = [];
  for (const bin of ["iptables", "ip6tables"]) {
    try {
      if (asRoot) await run(bin, ["-w", "-C", ...rule]);
      else await run("sudo", ["-n", bin, "-w", "-C", ...rule]);
    } catch (e) {
      const err = e as NodeJS.ErrnoException & { stderr?: string };
      if (err.code === "ENOENT") missing.push(`${asRoot ? bin : "sudo"} is not installed`);
      else if (/permission denied|you must be root|password is required|not allowed|sudoers/i.test(err.stderr ?? "")) {
        missing.push(`${bin} cannot be read by this user (uid ${process.getuid?.()}; scripts/up.sh with FAULTLINE_USER allows it)`);
      } else missing.push(`${bin} has no rule "${rule.join(" ")}"`);
    }
  }
  if (!missing.length) return true;
  warn(
    `HOST GUARD NOT ACTIVE (${missing.join("; ")}). Deployments still cannot reach the host (their bridges have no address), ` +
      `but challenges that need NET_ADMIN or NET_RAW will be refused. Install it as root: bash -c 'source scripts/lib.sh && host_guard_ensure'.`,
  );
  return false;
}
