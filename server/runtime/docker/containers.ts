// Containers: what every container gets (docs/decisions/003-runtime-docker.md, "What every
// container gets" and "Grader containers"), and how they are found and removed. The hardening is
// here, from ../policy.ts, so no caller can forget it.
// Over 350 lines: a container's creation is one sequence of security decisions (capabilities,
//  seccomp, mounts, namespaces, limits) that reads best in one place.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import type Docker from "dockerode";
import {
  LABEL,
  baseCapabilities,
  clampLimits,
  defaultWritable,
  extraCapabilities,
  graderCapabilities,
  maxLifetimeSeconds,
  networkCapabilities,
  ownerFromLabels,
  ownerLabels,
  probeWritable,
  safeName,
} from "#server/runtime/policy.ts";
import { RuntimeError, type ContainerInfo, type ContainerSpec, type ContainerState, type Owner, type WritableDir } from "#server/runtime/types.ts";
import { checkOwner, labelFilters, sleep, statusOf, type DriverContext } from "./engine.ts";
import { BRIDGE_PREFIX, type Networks } from "./network.ts";
import { checkWritable, createSkeletons, writableMounts } from "./writable.ts";

let seccompJson: string | undefined;
/** The seccomp profile of every deployment container, compact, read once. */
export function seccompProfile(): string {
  seccompJson ??= JSON.stringify(JSON.parse(readFileSync(new URL("../seccomp/deployment.json", import.meta.url), "utf8")));
  return seccompJson;
}

export function createContainers(ctx: DriverContext, networks: Networks) {
  const { docker } = ctx;
  const skeletons = createSkeletons(docker, ctx.cacheDir);

  async function createContainer(spec: ContainerSpec): Promise<ContainerInfo> {
    checkOwner(spec.owner);
    const hostname = safeHostname(spec.hostname);
    const limits = clampLimits(spec.limits);
    const caps = [...baseCapabilities];
    const allowed = spec.role === "grader" ? [...extraCapabilities, ...graderCapabilities] : extraCapabilities;
    for (const cap of spec.extraCapabilities ?? []) {
      const c = cap.toUpperCase().replace(/^CAP_/, "");
      if (!allowed.includes(c)) throw new RuntimeError(`capability ${cap} is not allowed`, "invalid");
      if (networkCapabilities.includes(c) && !(await ctx.hostGuardActive())) {
        throw new RuntimeError(`capability ${c} needs the host guard (iptables rule for ${BRIDGE_PREFIX}+ bridges), which is not active`, "invalid");
      }
      if (!caps.includes(c)) caps.push(c);
    }
    // A grader watches from the host's PID namespace: it has no business signalling anything.
    if (spec.role === "grader") caps.splice(caps.indexOf("KILL"), 1);
    const writable = checkWritable(spec.writable ?? (spec.role === "target" || spec.role === "copy" ? defaultWritable : probeWritable));
    if ((spec.inspects || spec.readOnlyVolumesOf || spec.joinsNetworkOf) && spec.role !== "grader") {
      throw new RuntimeError("inspects, readOnlyVolumesOf and joinsNetworkOf are for grader containers only", "invalid");
    }
    if ((spec.copyOf || spec.fresh) && spec.role !== "copy") throw new RuntimeError("copyOf and fresh are for copies only", "invalid");
    if (spec.role === "copy" && !spec.copyOf) throw new RuntimeError("a copy needs copyOf", "invalid");
    const inspected = spec.inspects ? await peerOf(spec.inspects, spec.owner, "inspects") : null;
    const volumePeer = spec.readOnlyVolumesOf ? await peerOf(spec.readOnlyVolumesOf, spec.owner, "readOnlyVolumesOf") : null;
    const source = spec.copyOf ? await peerOf(spec.copyOf, spec.owner, "copyOf") : null;
    const netPeer = spec.joinsNetworkOf ? await peerOf(spec.joinsNetworkOf, spec.owner, "joinsNetworkOf") : null;
    // The peer's writable directories are volumes (writable.ts): mounting the same volume again
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

    const image = await docker
      .getImage(spec.image)
      .inspect()
      .catch((e) => {
        if (statusOf(e) === 404) throw new RuntimeError(`image ${spec.image} not found (build it with npm run images)`, "not_found");
        throw e;
      });
    const network = await networks.findNetwork(spec.network);
    if (!network) throw new RuntimeError(`network ${spec.network} not found`, "not_found");
    if (network.owner.deploymentId !== spec.owner.deploymentId) throw new RuntimeError(`network ${spec.network} belongs to another deployment`, "invalid");
    if (source && source.Image !== image.Id) throw new RuntimeError(`copyOf: container ${spec.copyOf} runs another image`, "invalid");

    // The image's content of each writable directory, copied in after start (tmpfs volumes
    // lose what Docker's own copy-up writes: it mounts them, copies, and unmounts).
    // A copy takes its directories from its source (copyFrom below), but those named fresh.
    const copied = new Set(source ? writable.map((w) => w.path).filter((p) => !(spec.fresh ?? []).includes(p)) : []);
    const filled = writable.filter((w) => w.populate !== false && !copied.has(w.path)).map((w) => w.path);
    const fillByPath = new Map((await skeletons(image.Id, filled)).map((f, i) => [filled[i]!, f]));
    const fills = writable.map((w) => fillByPath.get(w.path) ?? null);

    const labels: Record<string, string> = {
      ...Object.fromEntries(Object.entries(spec.labels ?? {}).filter(([k]) => k.startsWith("faultline.") && !Object.values(LABEL).includes(k as never))),
      ...ownerLabels(spec.owner),
      [LABEL.role]: spec.role,
      [LABEL.expiresAt]: expiresAt.toISOString(),
    };
    // Only the target is named after its host: the others' names (which the target can look up
    // by address) say nothing of what they are.
    const suffix = spec.role === "target" ? hostname : randomBytes(4).toString("hex");
    const name = safeName(`fl-${spec.owner.deploymentId}-${suffix}`);
    const command = ["timeout", "-s", "KILL", `${lifetime}s`, ...(spec.command ?? ["sleep", "infinity"])];

    // A grader finds the host it inspects without the engine's DNS: that resolver lives in the
    // engine, which is slowest exactly when grading runs (copies made and removed at once), and
    // a lookup that takes seconds turned an honest fix into "did not answer in time".
    const inspectedAt = inspected && !netPeer ? inspected.NetworkSettings?.Networks?.[network.name]?.IPAddress : undefined;
    const extraHosts = inspectedAt && inspected?.Config.Hostname ? [`${inspected.Config.Hostname}:${inspectedAt}`] : [];
    const drawAddress = () =>
      spec.role === "grader" && !netPeer ? networks.randomFreeAddress(network.name).catch(() => undefined) : Promise.resolve(undefined);
    const create = (address: string | undefined) =>
      docker.createContainer({
        name,
        Image: image.Id,
        // The engine refuses a hostname of one's own in another container's network namespace.
        ...(netPeer ? {} : { Hostname: hostname }),
        Env: Object.entries({ LANG: "C.UTF-8", ...spec.env, ...(inspected ? { FL_TARGET_PID: String(inspectedPid(inspected)) } : {}) }).map(
          ([k, v]) => `${k}=${v}`,
        ),
        Cmd: command,
        Entrypoint: [],
        WorkingDir: "/",
        Labels: labels,
        StopSignal: "SIGKILL",
        HostConfig: {
          ...(ctx.ociRuntime === "runsc" ? { Runtime: "runsc" } : {}),
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
          NetworkMode: netPeer ? `container:${netPeer.Id}` : network.name,
          IpcMode: "private",
          ...(extraHosts.length ? { ExtraHosts: extraHosts } : {}),
          ...(inspected ? { PidMode: inspectedPidMode(inspected) } : {}),
          RestartPolicy: { Name: "no" },
          AutoRemove: false,
          // The user is root and can write to PID 1's stdout: no log may grow on the host's disk.
          LogConfig: { Type: "none", Config: {} },
          Mounts: [...writableMounts(writable, fills, labels), ...peerMounts],
        },
        NetworkingConfig: netPeer
          ? {}
          : {
              EndpointsConfig: {
                [network.name]: {
                  // The target is found by its name; a grader calls from an address picked at random.
                  ...(spec.role === "target" || spec.role === "copy" ? { Aliases: [hostname] } : {}),
                  ...(address ? { IPAMConfig: { IPv4Address: address } } : {}),
                },
              },
            },
      });
    let container: Docker.Container | undefined;
    for (let attempt = 1; !container; attempt++) {
      const address = await drawAddress();
      const made = await create(address).catch((e: unknown) => {
        if (statusOf(e) === 409) throw new RuntimeError(`a container named ${name} already exists`, "invalid");
        throw e;
      });
      try {
        await made.start();
        container = made;
      } catch (e) {
        await made.remove({ force: true, v: true }).catch(() => {});
        // Another container took the drawn address between the listing and the start (graders
        // of parallel checks come and go on one network): draw again.
        if (!(address && attempt < 6 && /address already in use/i.test(String((e as Error)?.message ?? e)))) throw e;
      }
    }
    try {
      await Promise.all(writable.map((w, i) => (fills[i]?.tar ? container.putArchive(fills[i]!.tar!, { path: w.path }) : null)));
      if (source) await copyFrom(source, container.id, [...copied], image.Id, limits);
    } catch (e) {
      await container.remove({ force: true, v: true }).catch(() => {});
      throw e;
    }
    const info = await inspect(container.id);
    if (!info) throw new RuntimeError(`container ${name} vanished after start`, "failed");
    return info;
  }

  /** Where a grader sees the inspected container's first process. runc: the grader is in the
   *  host's PID namespace (the target cannot see it) and finds it by its host PID. gVisor: the
   *  host does not see inside the sandbox, so the grader joins its PID namespace (PID 1), where
   *  the target sees it too (decision 008, residual risks). */
  function inspectedPidMode(c: Docker.ContainerInspectInfo) {
    return ctx.ociRuntime === "runsc" ? `container:${c.Id}` : "host";
  }
  function inspectedPid(c: Docker.ContainerInspectInfo) {
    return ctx.ociRuntime === "runsc" ? 1 : c.State.Pid;
  }

  /**
   * A copy's writable directories from its source's, as they are now: a short-lived helper of the
   * same image mounts the source's volumes read-only and the copy's volumes (held by the running
   * copy, so the same live tmpfs) and runs the image's own `cp -a` (owners, modes, ACLs, links,
   * sparse files kept sparse). Nothing of the source is executed; the helper has no network.
   */
  async function copyFrom(
    source: Docker.ContainerInspectInfo,
    copyId: string,
    paths: string[],
    imageId: string,
    limits: { memoryBytes: number; pids: number },
  ) {
    if (!paths.length) return;
    const copy = await docker.getContainer(copyId).inspect();
    const volumeAt = (c: Docker.ContainerInspectInfo, path: string) => (c.Mounts ?? []).find((m) => m.Type === "volume" && m.Destination === path)?.Name;
    const mounts = paths.flatMap((path, i) => {
      const from = volumeAt(source, path);
      const to = volumeAt(copy, path);
      if (!from || !to) throw new RuntimeError(`copyOf: ${path} is not a writable directory of both containers`, "invalid");
      return [
        { Type: "volume" as const, Source: from, Target: `/fl-from/${i}`, ReadOnly: true },
        { Type: "volume" as const, Source: to, Target: `/fl-to/${i}` },
      ];
    });
    const script = paths.map((_, i) => `cp -a --sparse=always /fl-from/${i}/. /fl-to/${i}/`).join(" && ");
    const helper = await docker.createContainer({
      Image: imageId,
      Cmd: ["timeout", "-s", "KILL", "60s", "/bin/sh", "-c", script],
      Entrypoint: [],
      WorkingDir: "/",
      NetworkDisabled: true,
      Labels: { ...Object.fromEntries(Object.entries(source.Config.Labels ?? {}).filter(([k]) => k.startsWith("faultline."))), [LABEL.role]: "copier" },
      HostConfig: {
        ...(ctx.ociRuntime === "runsc" ? { Runtime: "runsc" } : {}),
        NetworkMode: "none",
        ReadonlyRootfs: true,
        CapDrop: ["ALL"],
        CapAdd: ["CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID"],
        SecurityOpt: ["no-new-privileges", `seccomp=${seccompProfile()}`],
        Memory: limits.memoryBytes,
        MemorySwap: limits.memoryBytes,
        PidsLimit: 32,
        LogConfig: { Type: "none", Config: {} },
        Mounts: mounts,
      },
    });
    try {
      await helper.start();
      const { StatusCode } = (await helper.wait()) as { StatusCode: number };
      if (StatusCode !== 0) throw new RuntimeError(`copying ${paths.join(", ")} failed (exit ${StatusCode})`, "failed");
    } finally {
      await helper.remove({ force: true, v: true }).catch(() => {});
    }
  }

  /** A container another one attaches to (grader, copy): it must be a managed one of the same deployment. */
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
      state: (["created", "running", "exited", "dead"].includes(state)
        ? state
        : state === "paused" || state === "restarting"
          ? "running"
          : "unknown") as ContainerState,
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
    const found = await networks.listNetworks({ [LABEL.deployment]: deploymentId });
    await Promise.all(found.map((n) => networks.removeNetwork(n.id)));
    // A volume still mounted by another container (a grader's read-only view of the target) is
    // kept by the engine when its own container goes: remove what is left once all are gone.
    const { Volumes: volumes } = await docker.listVolumes({ filters: { label: labelFilters({ [LABEL.deployment]: deploymentId }) } });
    await Promise.all(
      (volumes ?? []).map((v) =>
        docker
          .getVolume(v.Name)
          .remove()
          .catch((e) => {
            if (statusOf(e) !== 404) throw e;
          }),
      ),
    );
  }

  /** What the first container of an image would compute (the content of its writable
   *  directories), computed ahead (boot). A missing image is skipped: the health check reports it. */
  async function prepare(imageName: string, writable: WritableDir[] = defaultWritable) {
    const image = await docker
      .getImage(imageName)
      .inspect()
      .catch((e) => {
        if (statusOf(e) === 404) return null;
        throw e;
      });
    if (!image) return;
    await skeletons.ensure(
      image.Id,
      checkWritable(writable)
        .filter((w) => w.populate !== false)
        .map((w) => w.path),
    );
  }

  return { createContainer, inspect, list, remove, removeDeployment, prepare };
}

function safeHostname(name: string) {
  const h = name.toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(h)) throw new RuntimeError(`not a valid hostname: ${name}`, "invalid");
  return h;
}
