// The Docker driver: the runtime over the Docker Engine API (dockerode; DOCKER_HOST or the
// default socket). Tested against dockerd 20.10 / API 1.41 by tests/runtime/docker.test.ts.
// Engine facts it works around are listed in docs/decisions/003-runtime-docker.md; each part
// here follows one of its sections:
//   network.ts     an internal network per deployment whose bridge has no address
//   host-guard.ts  the host firewall rule behind it (looked for, never installed)
//   containers.ts  what every container gets, grader containers, finding and removing them
//   writable.ts    disk: read-only root, tmpfs volumes filled with the image's content
//   exec.ts        execs, with exit codes from exec-watch.ts and signals from signals.ts
//   files.ts       reading and writing files through the engine
import Docker from "dockerode";
import type { Runtime, WritableDir } from "#server/runtime/types.ts";
import { RuntimeError } from "#server/runtime/types.ts";
import { createContainers } from "./containers.ts";
import { isLocalEngine, type DriverContext } from "./engine.ts";
import { createExec } from "./exec.ts";
import { createFiles } from "./files.ts";
import { createHostGuardCheck } from "./host-guard.ts";
import { createNetworks } from "./network.ts";

export { seccompProfile } from "./containers.ts";
export { checkHostGuard } from "./host-guard.ts";
export { networkName } from "./network.ts";

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
  /** Where caches that survive a restart are kept (the image content of writable directories);
   *  none: memory only, so the first deployment of each image after a start pays for it. */
  cacheDir?: string;
}

export function createDockerRuntime(options: DockerRuntimeOptions = {}): Runtime & { docker: Docker; hostGuardActive(): Promise<boolean> } {
  const docker = options.docker ?? new Docker();
  const local = isLocalEngine();
  const warn = options.warn ?? ((m: string) => console.error(`faultline: ${m}`));
  const ctx: DriverContext = {
    docker,
    log: options.log ?? (() => {}),
    local,
    ociRuntime: options.ociRuntime,
    hostGuardActive: createHostGuardCheck(options.hostGuard !== false && local, warn),
    cacheDir: options.cacheDir,
  };
  const networks = createNetworks(ctx, options.subnetPool ?? "172.30.0.0/16");
  const containers = createContainers(ctx, networks);
  const files = createFiles(docker);
  const exec = createExec(ctx);

  async function ping() {
    try {
      await docker.ping();
    } catch (e) {
      throw new RuntimeError(
        `Docker engine not reachable (${process.env.DOCKER_HOST ?? "/var/run/docker.sock"}): ${(e as Error).message}. Start it with scripts/docker.sh.`,
        "unavailable",
      );
    }
  }

  /** One listing of the engine's images, compared by tag (the health check asks often). */
  async function missingImages(images: string[]) {
    const tags = new Set((await docker.listImages()).flatMap((i) => i.RepoTags ?? []));
    return images.filter((name) => !tags.has(name) && !tags.has(name.includes(":") ? name : `${name}:latest`));
  }

  /** Boot: what the first deployment of each image would otherwise compute (the host guard's
   *  look, the writable directories' content, to disk), one image at a time so the engine stays
   *  free for starts. */
  async function prepare(images: { image: string; writable?: WritableDir[] }[]) {
    await ctx.hostGuardActive();
    for (const { image, writable } of images) {
      await containers.prepare(image, writable).catch((e) => ctx.log(`preparing ${image} failed: ${(e as Error).message}`));
    }
  }

  return {
    name: "docker",
    prepare,
    docker,
    hostGuardActive: ctx.hostGuardActive,
    ping,
    missingImages,
    createNetwork: networks.createNetwork,
    removeNetwork: networks.removeNetwork,
    listNetworks: networks.listNetworks,
    createContainer: containers.createContainer,
    inspect: containers.inspect,
    list: containers.list,
    remove: containers.remove,
    removeDeployment: containers.removeDeployment,
    exec,
    readFile: files.readFile,
    writeFile: files.writeFile,
  };
}
