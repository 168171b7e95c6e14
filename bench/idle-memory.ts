// Host memory per idle deployment, and how many fit in 24 GiB. Starts N deployments of a
// challenge as the platform does (network, hardened container, writable directories filled,
// setup.sh run), lets them settle, and compares with N plain containers of the same image
// (`sleep infinity`, no tmpfs, default network).
//
//   npm run bench:idle -- [n=20] [challenge=nginx-broken-config]
//
// Figures:
// - host: the fall of MemAvailable (/proc/meminfo) per deployment, everything included; noisy
//   when other work runs, so it is taken three times and the median kept;
// - charged to the deployment: its memory cgroup's usage (what its limit sees);
// - the writable directories' copy: tmpfs pages the engine wrote when it filled them (putArchive
//   runs in dockerd), charged to dockerd's cgroup, so to no deployment's limit: read with `df`
//   inside each container;
// - the rest: shim, network namespace and bridge, mounts, the engine's bookkeeping.
// What admission control counts per deployment (server/core/capacity.ts) is printed beside it.
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import Docker from "dockerode";
import { DEPLOYMENT_OVERHEAD_BYTES, deploymentCost } from "#server/core/capacity.ts";
import { loadChallenges } from "#server/library/challenges.ts";
import { createDockerRuntime } from "#server/runtime/docker/index.ts";
import { runCommand } from "#server/runtime/exec.ts";
import { provision, runSetup } from "#server/runtime/scenario.ts";
import { mib, sleep } from "./runtime-support.ts";

const n = Number(process.argv[2] ?? 20);
const id = process.argv[3] ?? "nginx-broken-config";
const challenge = loadChallenges().find((c) => c.id === id);
if (!challenge) throw new Error(`no challenge ${id}`);
const docker = new Docker();
const runtime = createDockerRuntime({ docker });
const instance = `bench-idle-${process.pid}`;
const GiB24 = 24 * 2 ** 30;

const available = () => Number(/MemAvailable:\s+(\d+) kB/.exec(readFileSync("/proc/meminfo", "utf8"))![1]) * 1024;
/** MemAvailable three times a second apart: the median. */
async function availableNow() {
  const xs: number[] = [];
  for (let i = 0; i < 3; i++) {
    xs.push(available());
    await sleep(1000);
  }
  return xs.sort((a, b) => a - b)[1]!;
}
/** cgroup v1 (this host) or v2: the container's memory usage in bytes. */
function cgroupUsage(containerId: string) {
  for (const f of [
    `/sys/fs/cgroup/memory/docker/${containerId}/memory.usage_in_bytes`,
    `/sys/fs/cgroup/system.slice/docker-${containerId}.scope/memory.current`,
  ]) {
    try {
      return Number(readFileSync(f, "utf8").trim());
    } catch {
      // the other layout
    }
  }
  return NaN;
}

/** Proportional set size of a process (its share of pages it shares with others), bytes. */
function pss(pid: number) {
  try {
    return Number(/Pss:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))![1]) * 1024;
  } catch {
    return 0;
  }
}
/** Processes whose command line matches. */
function pidsOf(match: (args: string) => boolean) {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const args = readFileSync(`/proc/${d}/cmdline`, "utf8").replace(/\0/g, " ");
        return match(args) ? [Number(d)] : [];
      } catch {
        return [];
      }
    });
}
const shimOf = (containerId: string) => pidsOf((a) => a.includes("containerd-shim") && a.includes(`-id ${containerId}`));
const engine = () => pidsOf((a) => /^(\S*\/)?(dockerd|containerd)( |$)/.test(a)).reduce((sum, p) => sum + pss(p), 0);

const deployments: string[] = [];
const plain: string[] = [];
try {
  await runtime.prepare?.([{ image: challenge.image, writable: challenge.writable }]);
  const base = await availableNow();
  const engineBase = engine();
  const targets: string[] = [];
  for (let i = 0; i < n; i++) {
    const owner = { deploymentId: randomUUID(), userId: "bench", challengeId: challenge.id, instance };
    deployments.push(owner.deploymentId);
    const env = await provision(runtime, challenge, owner, new Date(Date.now() + 3600_000));
    await runSetup(runtime, challenge, env);
    targets.push(env.target.id);
    process.stdout.write(`deployment ${i + 1}/${n}\r`);
  }
  await sleep(5000);
  const withDeployments = await availableNow();
  const engineGrowth = engine() - engineBase;
  let charged = 0;
  let copy = 0;
  let shims = 0;
  const paths = challenge.writable.map((w) => w.path);
  for (const t of targets) {
    charged += cgroupUsage(t);
    shims += shimOf(t).reduce((sum, p) => sum + pss(p), 0);
    const df = await runCommand(runtime, t, ["df", "-k", "--output=used", ...paths], { timeoutMs: 10_000 });
    copy += df.stdout
      .split("\n")
      .slice(1)
      .filter(Boolean)
      .reduce((sum, l) => sum + Number(l.trim()) * 1024, 0);
  }
  // Execs (setup, df) leave nothing behind: the figures are of idle deployments.
  for (const dep of deployments) await runtime.removeDeployment(dep);
  deployments.length = 0;
  await sleep(5000);

  const base2 = await availableNow();
  for (let i = 0; i < n; i++) {
    const c = await docker.createContainer({
      Image: challenge.image,
      Cmd: ["sleep", "infinity"],
      Entrypoint: [],
      Labels: { "faultline.bench": instance },
      HostConfig: { Init: true, LogConfig: { Type: "none", Config: {} } },
    });
    plain.push(c.id);
    await c.start();
  }
  await sleep(5000);
  const withPlain = await availableNow();
  const plainCharged = plain.reduce((sum, c) => sum + cgroupUsage(c), 0);

  const plainShims = plain.reduce((sum, c) => sum + shimOf(c).reduce((x, p) => x + pss(p), 0), 0);
  // What can be pinned on each deployment: its cgroup, its tmpfs copy, its shim, its share of
  // the engine's growth. The network namespace, bridge and mounts are kernel memory: only the
  // whole host's MemAvailable sees them, and other work on the machine blurs that one.
  const accounted = (charged + copy + shims + engineGrowth) / n;
  const perDeployment = (base - withDeployments) / n;
  const perPlain = (base2 - withPlain) / n;
  const plainAccounted = (plainCharged + plainShims) / n;
  const limitCost = deploymentCost(challenge);
  console.log(`\n${id}: ${n} idle deployments (2 cores, 24 GiB, dockerd 20.10, runc, ${new Date().toISOString().slice(0, 10)})`);
  console.log(
    `  host memory per idle deployment, accounted: ${mib(accounted)} (plain container of the image: ${mib(plainAccounted)}, ×${(accounted / plainAccounted).toFixed(1)})`,
  );
  console.log(`    charged to the deployment's cgroup:       ${mib(charged / n)} (plain: ${mib(plainCharged / n)})`);
  console.log(`    writable directories' copy (tmpfs written by dockerd, charged to no deployment): ${mib(copy / n)}`);
  console.log(`    containerd shim (PSS):                    ${mib(shims / n)} (plain: ${mib(plainShims / n)})`);
  console.log(`    dockerd + containerd growth (PSS):        ${mib(engineGrowth / n)}`);
  console.log(`  whole host, MemAvailable's fall (kernel memory included; blurred by other work): ${mib(perDeployment)} (plain: ${mib(perPlain)})`);
  console.log(
    `  outside the deployment's limit: ${mib(accounted - charged / n)} accounted; admission control counts ${mib(DEPLOYMENT_OVERHEAD_BYTES)} (server/core/capacity.ts)`,
  );
  console.log(`  in 24 GiB, idle as accounted: ${Math.floor(GiB24 / accounted)} deployments (plain containers: ${Math.floor(GiB24 / plainAccounted)})`);
  console.log(`  in 24 GiB, as admission control counts (limits ${mib(limitCost)} each, 75 % of the host): ${Math.floor((GiB24 * 0.75) / limitCost)}`);
} finally {
  for (const dep of deployments) await runtime.removeDeployment(dep).catch(() => {});
  for (const c of plain)
    await docker
      .getContainer(c)
      .remove({ force: true })
      .catch(() => {});
}
process.exit(0);
