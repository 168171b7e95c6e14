// A challenge's life in a deployment, over any Runtime: provision the hardened environment, run
// setup.sh (the fault; its JSON output is kept by the platform), grade with check.sh out of the
// user's reach, run the reference solution (CI). The deployments and grading services build on these.
//
// Scripts are fed to bash on stdin: they are never written into the user's container. check.sh
// runs in a short-lived grader container (docs/decisions/008-grading-threat-model.md): the
// challenge's read-only image, in the host's PID namespace (it sees the target's processes by
// their host PIDs and reads its files and sockets through /proc with the `fl` inspector; the
// target cannot see it), on the deployment's network as another host (it calls the target's
// services as a client would). Nothing the user can write is executed while grading. When the
// live system passes, a copy of its disk is booted and checked the same way.
// Over 350 lines: a deployment's scenario from provisioning to grading (setup, solution, live
//  check, booted copy, network reader) in the order grading runs it.
import { randomBytes, randomInt } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Challenge } from "#server/library/challenges.ts";
import { runCommand, type RunResult } from "./exec.ts";
import { graderCapabilities } from "./policy.ts";
import { RuntimeError, type ContainerInfo, type NetworkInfo, type Owner, type Runtime } from "./types.ts";

export interface Environment {
  owner: Owner;
  network: NetworkInfo;
  target: ContainerInfo;
}

export type ScenarioValues = Record<string, string>;

export async function provision(runtime: Runtime, challenge: Challenge, owner: Owner, expiresAt: Date): Promise<Environment> {
  const network = await runtime.createNetwork(owner);
  try {
    const target = await runtime.createContainer({
      owner,
      role: "target",
      image: challenge.image,
      hostname: challenge.hostname,
      network: network.name,
      expiresAt,
      limits: challenge.limits,
      writable: challenge.writable,
      extraCapabilities: challenge.capabilities,
    });
    return { owner, network, target };
  } catch (e) {
    await runtime.removeDeployment(owner.deploymentId).catch(() => {});
    throw e;
  }
}

/** Runs setup.sh; returns the values it printed (last line of stdout, a JSON object). */
export async function runSetup(runtime: Runtime, challenge: Challenge, env: Environment, extraEnv: Record<string, string> = {}) {
  if (!challenge.setup.script.trim()) return { values: {} as ScenarioValues, result: null };
  const result = await runScript(runtime, env.target.id, challenge.setup.script, challenge.setup.timeoutSeconds, {
    FL_DEPLOYMENT: env.owner.deploymentId,
    FL_HOSTNAME: challenge.hostname,
    ...extraEnv,
  });
  if (result.exitCode !== 0 || result.timedOut) {
    throw new RuntimeError(
      `setup of ${challenge.id} failed (exit ${result.exitCode}${result.timedOut ? ", timed out" : ""}): ${tail(result.stderr || result.stdout)}`,
      "failed",
    );
  }
  const last = result.stdout.trim().split("\n").pop() ?? "";
  let values: ScenarioValues = {};
  if (last.startsWith("{")) {
    try {
      const parsed = JSON.parse(last) as Record<string, unknown>;
      values = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
    } catch {
      throw new RuntimeError(`setup of ${challenge.id} printed a last line that is not JSON: ${last.slice(0, 200)}`, "failed");
    }
  }
  return { values, result };
}

export interface CheckOutcome {
  passed: boolean;
  feedback: string;
  timedOut: boolean;
  durationMs: number;
  /** Which system the verdict is about: the deployment as it is, or a copy of its disk after a
   *  boot (only judged when the live one passes). */
  phase: "live" | "boot";
  /** Milliseconds of each part: the live check, making the copy, inspect.sh, the boot, the
   *  copy's check (the bench's breakdown). */
  timings: Record<string, number>;
}

const GRADER_DIR = join(import.meta.dirname, "grader");
const graderFile = (name: string) => readFileSync(join(GRADER_DIR, name), "utf8");
/** The `fl` inspector: grader/fl/*.py, one concern each, joined in name order. */
const flProgram = () =>
  readdirSync(join(GRADER_DIR, "fl"))
    .filter((f) => f.endsWith(".py"))
    .sort()
    .map((f) => graderFile(join("fl", f)))
    .join("");
/** The grader's prelude (the `fl` inspector, the preload gate, fail-closed wrappers) around a check. */
export function graderScript(check: string) {
  const [head, tail] = graderFile("prelude.sh")
    .replace("@FL_PY@", () => flProgram().trimEnd())
    .replace("@FL_FIREWALL@", () => graderFile("firewall.py").trimEnd())
    .replace("@FL_ROUTES@", () => graderFile("routes.py").trimEnd())
    .split("@CHECK@");
  return `${head}${check}${tail}`;
}
const bootScript = graderFile("boot.sh");
const inspectPrelude = graderFile("inspect-prelude.sh");
const netstateScript = graderFile("netstate.sh");
/** The longest network account a check gets (it travels in the environment too). */
const NETSTATE_MAX = 96 * 1024;
/** The longest inspect.sh output a check gets (it travels in the environment). */
const INSPECTION_MAX = 64 * 1024;

/** User agents of the story's clients: the grader's HTTP client takes one at random at every
 *  check, so a stand-in cannot tell it from a customer by its name. */
const CLIENT_AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "curl/7.88.1",
  "curl/8.5.0",
  "Wget/1.21.3",
  "python-requests/2.31.0",
  "Go-http-client/1.1",
  "Prometheus/2.45.3",
  "kube-probe/1.29",
  "ELB-HealthChecker/2.0",
];

/**
 * Grades a deployment with check.sh in a grader container beside it, with the deployment's values
 * and the user's written solution. When the live system passes, a copy of its disk is booted and
 * checked too (decision 008, "after a reboot"): stand-ins, hand-started processes and one-off
 * runtime fixes are gone there, and a fault kept in boot files comes back. Fails closed: a grader
 * or copy that cannot start or finish is "not correct".
 */
export async function runCheck(runtime: Runtime, challenge: Challenge, env: Environment, values: ScenarioValues): Promise<CheckOutcome> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  // The copy's network is made while the live check runs (it costs the engine little): a
  // passing check does not wait for it, a failing one removes it unused.
  const network = runtime.createNetwork(env.owner, `b${randomBytes(3).toString("hex")}`);
  network.catch(() => {});
  const [grader, netstate] = await Promise.allSettled([
    makeGrader(runtime, challenge, env, env.target.id, env.network.name),
    readNetwork(runtime, challenge, env, env.target, env.network),
  ]);
  if (grader.status === "rejected" || netstate.status === "rejected") {
    if (grader.status === "fulfilled") void runtime.remove(grader.value.id).catch(() => {});
    void network.then((n) => runtime.removeNetwork(n.id)).catch(() => {});
    throw grader.status === "rejected" ? grader.reason : (netstate as PromiseRejectedResult).reason;
  }
  const live = await gradeOn(runtime, challenge, env, grader.value, values, "live", { netstate: netstate.value });
  timings.live = live.durationMs;
  const done = (r: Graded, phase: "live" | "boot", prefix = ""): CheckOutcome => ({
    passed: r.exitCode === 0 && !r.timedOut,
    feedback: r.timedOut
      ? `${prefix}The check did not finish within ${challenge.check.timeoutSeconds}s.`
      : prefix + tail(r.stdout.trim() || r.stderr.trim(), 2000),
    timedOut: r.timedOut,
    durationMs: Math.round(performance.now() - started),
    phase,
    timings,
  });
  if (live.exitCode !== 0 || live.timedOut) {
    void network.then((n) => runtime.removeNetwork(n.id)).catch(() => {});
    return done(live, "live");
  }
  const booted = await bootCopy(runtime, challenge, env, network, values, timings);
  return done(booted, "boot", booted.exitCode === 0 ? "" : "After a reboot: ");
}

type Graded = RunResult & { durationMs: number };
type Grader = { id: string; createdMs: number };

/** A grader beside `targetId` (the deployment's target or its copy), watching it from outside. */
async function makeGrader(runtime: Runtime, challenge: Challenge, env: Environment, targetId: string, network: string): Promise<Grader> {
  const t0 = performance.now();
  const grader = await runtime.createContainer({
    owner: env.owner,
    role: "grader",
    image: challenge.image,
    hostname: `h${randomBytes(3).toString("hex")}`,
    network,
    expiresAt: new Date(Date.now() + (challenge.boot.timeoutSeconds + challenge.check.timeoutSeconds + 60) * 1000),
    inspects: targetId,
    extraCapabilities: graderCapabilities,
  });
  return { id: grader.id, createdMs: Math.round(performance.now() - t0) };
}

/** The network stack of `host` (the target or its copy) as its kernel holds it (netstate.sh),
 *  for challenges whose player holds NET_ADMIN: read by a grader that shares the host's network
 *  namespace and nothing else, and passed to check.sh as FL_NETSTATE. Other challenges: none.
 *  Throws when it cannot be read (grading then fails closed). */
async function readNetwork(runtime: Runtime, challenge: Challenge, env: Environment, host: ContainerInfo, network: NetworkInfo): Promise<string | undefined> {
  if (!challenge.capabilities.includes("NET_ADMIN")) return undefined;
  if (!network.subnet || !host.ip) throw new RuntimeError(`the addresses of ${host.name} are unknown`, "failed");
  const reader = await runtime.createContainer({
    owner: env.owner,
    role: "grader",
    image: challenge.image,
    hostname: challenge.hostname,
    network: network.name,
    joinsNetworkOf: host.id,
    expiresAt: new Date(Date.now() + 120_000),
    // NET_ADMIN reads nf_tables; NET_RAW the legacy tables' socket.
    extraCapabilities: ["NET_ADMIN", "NET_RAW"],
  });
  try {
    const r = await runCommand(runtime, reader.id, ["/bin/bash", "-s"], {
      input: netstateScript,
      env: { FL_NET_SUBNET: network.subnet, FL_NET_SELF: host.ip },
      user: "root",
      workdir: "/",
      timeoutMs: 30_000,
      maxOutputBytes: NETSTATE_MAX,
    });
    // Cut short, it would hide what comes after: judged only whole.
    if (r.timedOut || !r.stdout.trimEnd().endsWith("== end")) throw new RuntimeError(r.timedOut ? "it did not finish" : "there was too much to read", "failed");
    return r.stdout;
  } finally {
    void runtime.remove(reader.id).catch(() => {});
  }
}

/** Runs check.sh in the grader, then removes it (in the background: nothing waits for that). */
async function gradeOn(
  runtime: Runtime,
  challenge: Challenge,
  env: Environment,
  grader: Grader,
  values: ScenarioValues,
  phase: "live" | "boot",
  { inspection, netstate }: { inspection?: string; netstate?: string },
): Promise<Graded> {
  const started = performance.now();
  const scriptEnv: Record<string, string> = {
    ...valueEnv(values),
    FL_TARGET: challenge.hostname,
    FL_DEPLOYMENT: env.owner.deploymentId,
    FL_PHASE: phase,
    FL_BOOT_EXEMPT: challenge.boot.exempt.join(" "),
    FL_CLIENT_AGENT: CLIENT_AGENTS[randomInt(CLIENT_AGENTS.length)]!,
    ...(inspection !== undefined ? { FL_INSPECTION: inspection } : {}),
    ...(netstate !== undefined ? { FL_NETSTATE: netstate } : {}),
  };
  try {
    const result = await runScript(runtime, grader.id, graderScript(challenge.check.script), challenge.check.timeoutSeconds, scriptEnv);
    return { ...result, durationMs: Math.round(performance.now() - started) + grader.createdMs };
  } finally {
    void runtime.remove(grader.id).catch(() => {});
  }
}

/** The copy: the target's writable directories as they are now (but /run and /tmp, empty as
 *  after a boot) in a container of the same image, limits and capabilities, on a network of its
 *  own where it has the target's name; inspect.sh asks the image's programs about its files
 *  before anything of the player's runs there; then it boots (boot.sh) and is checked by a
 *  grader made while it boots. */
async function bootCopy(
  runtime: Runtime,
  challenge: Challenge,
  env: Environment,
  networkMade: Promise<NetworkInfo>,
  values: ScenarioValues,
  timings: Record<string, number>,
): Promise<Graded> {
  const t0 = performance.now();
  const failed = (message: string): Graded => ({ exitCode: 1, stdout: message, stderr: "", timedOut: false, durationMs: Math.round(performance.now() - t0) });
  let network: NetworkInfo;
  try {
    network = await networkMade;
  } catch (e) {
    return failed(`The grader could not make a network to boot a copy of the deployment (${(e as Error).message}): not graded.`);
  }
  let copyId: string | undefined;
  let copy: ContainerInfo | undefined;
  let grader: Promise<Grader> | undefined;
  try {
    try {
      copy = await runtime.createContainer({
        owner: env.owner,
        role: "copy",
        image: challenge.image,
        hostname: challenge.hostname,
        network: network.name,
        expiresAt: new Date(Date.now() + (challenge.boot.timeoutSeconds + challenge.check.timeoutSeconds + 120) * 1000),
        limits: challenge.limits,
        writable: challenge.writable,
        extraCapabilities: challenge.capabilities,
        copyOf: env.target.id,
        fresh: ["/run", "/tmp"],
      });
      copyId = copy.id;
    } catch (e) {
      return failed(`The grader could not copy the deployment's disk to boot it (${(e as Error).message}): not graded.`);
    }
    timings.copy = Math.round(performance.now() - t0);
    grader = makeGrader(runtime, challenge, env, copyId, network.name);
    grader.catch(() => {});
    let inspection: string | undefined;
    if (challenge.inspect) {
      const t1 = performance.now();
      const preload = await runtime.readFile(copyId, "/etc/ld.so.preload", { maxBytes: 4096 }).catch(() => null);
      if (preload && preload.content.toString().trim())
        return failed("/etc/ld.so.preload is set: grading refuses to trust a system that preloads libraries into every program.");
      const r = await runCommand(runtime, copyId, ["/lib64/ld-linux-x86-64.so.2", "--inhibit-cache", "/bin/bash", "-s"], {
        input: `${inspectPrelude}\n${challenge.inspect}`,
        env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", HOME: "/root", LANG: "C.UTF-8" },
        user: "root",
        workdir: "/",
        timeoutMs: 30_000,
        maxOutputBytes: INSPECTION_MAX,
      });
      if (r.timedOut) return failed("Inspecting the deployment's configuration did not finish: not graded.");
      inspection = r.stdout.slice(0, INSPECTION_MAX);
      timings.inspect = Math.round(performance.now() - t1);
    }
    const t2 = performance.now();
    const boot = await runCommand(runtime, copyId, ["/bin/bash", "-s"], {
      input: bootScript,
      env: { FL_BOOT_STEP: String(Math.min(20, challenge.boot.timeoutSeconds)) },
      user: "root",
      workdir: "/",
      timeoutMs: challenge.boot.timeoutSeconds * 1000,
    });
    timings.boot = Math.round(performance.now() - t2);
    if (boot.timedOut) return failed(`The deployment did not finish booting within ${challenge.boot.timeoutSeconds}s: a start-up script hangs.`);
    let made: Grader;
    try {
      made = await grader;
    } catch (e) {
      return failed(`The grader could not start beside the booted copy (${(e as Error).message}): not graded.`);
    }
    grader = undefined;
    let netstate: string | undefined;
    try {
      netstate = await readNetwork(runtime, challenge, env, copy!, network);
    } catch (e) {
      void runtime.remove(made.id).catch(() => {});
      return failed(`The grader could not read the booted copy's network (${(e as Error).message}): not graded.`);
    }
    const result = await gradeOn(runtime, challenge, env, made, values, "boot", { inspection, netstate });
    timings.bootCheck = result.durationMs;
    return result;
  } finally {
    // Gone in the background, the network once nothing is attached to it any more.
    const copy = copyId;
    void (async () => {
      const g = await grader?.catch(() => null);
      await Promise.all([copy ? runtime.remove(copy) : null, g ? runtime.remove(g.id) : null]).catch(() => {});
      await runtime.removeNetwork(network.id).catch(() => {});
    })();
  }
}

/** Runs the reference solution inside the target as the user would (CI, `npm run challenge`):
 *  without the platform's values, so it must find the fault the way a person does. */
export function runSolution(runtime: Runtime, challenge: Challenge, env: Environment) {
  return runAsUser(runtime, env, challenge.solution.script, 120);
}

/** The written answer a reference solution gives: its last `ANSWER: ...` line (what a person
 *  would write after finding the fault), or a plain sentence when the challenge asks nothing. */
export function referenceAnswer(solutionStdout: string): string {
  const line = solutionStdout
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("ANSWER:"));
  return line ? line.slice("ANSWER:".length).trim() : "Fixed it.";
}

/** Runs a script as root inside the target, with what a user's shell has and nothing of the
 *  platform's (the fakes suite uses it to play the hostile user). */
export function runAsUser(runtime: Runtime, env: Environment, script: string, timeoutSeconds = 60) {
  return runScript(runtime, env.target.id, script, timeoutSeconds, {});
}

// An absolute /bin/bash: the engine resolves a bare name through PATH inside the container.
// setup.sh and solution.sh run in the target (the user's system, as the user would run them);
// check.sh only ever in a grader, whose /usr/local is the image's.
function runScript(runtime: Runtime, containerId: string, script: string, timeoutSeconds: number, env: Record<string, string>) {
  return runCommand(runtime, containerId, ["/bin/bash", "-s"], {
    input: script,
    env: { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", HOME: "/root", LANG: "C.UTF-8", ...env },
    user: "root",
    workdir: "/root",
    timeoutMs: timeoutSeconds * 1000,
  });
}

/** setup.sh's values as FL_<KEY> variables. */
export function valueEnv(values: ScenarioValues): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [`FL_${k.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`, v]));
}

function tail(text: string, max = 600) {
  return text.length > max ? `…${text.slice(-max)}` : text;
}
