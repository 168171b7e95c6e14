// A challenge's life in a deployment, over any Runtime: provision the hardened environment, run
// setup.sh (the fault; its JSON output is kept by the platform), grade with check.sh out of the
// user's reach, run the reference solution (CI). The deployments and grading services build on these.
//
// Scripts are fed to bash on stdin: they are never written into the user's container. check.sh
// runs in a short-lived grader container (docs/decisions/008-grading-threat-model.md): the
// challenge's read-only image, in the target's PID namespace (it sees the target's processes and
// reads its files and sockets through /proc with the `fl` inspector), on the deployment's network
// as another host (it calls the target's services as a client would). Nothing the user can write
// is executed while grading.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SOLUTION_MAX } from "../../shared/rules.ts";
import type { Challenge } from "./challenges.ts";
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
    throw new RuntimeError(`setup of ${challenge.id} failed (exit ${result.exitCode}${result.timedOut ? ", timed out" : ""}): ${tail(result.stderr || result.stdout)}`, "failed");
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
}

/** The grader's prelude (the `fl` inspector and the preload gate), put before every check.sh. */
const GRADER_DIR = join(import.meta.dirname, "grader");
export const graderPrelude = readFileSync(join(GRADER_DIR, "prelude.sh"), "utf8").replace(
  "@FL_PY@",
  readFileSync(join(GRADER_DIR, "fl.py"), "utf8").trimEnd(),
);

/** Runs check.sh in a grader container beside the target, with the deployment's values and the
 *  user's written solution. Fails closed: a grader that cannot start or finish is "not correct". */
export async function runCheck(runtime: Runtime, challenge: Challenge, env: Environment, values: ScenarioValues, submission = ""): Promise<CheckOutcome> {
  const started = performance.now();
  const scriptEnv = { ...valueEnv(values), FL_TARGET: challenge.hostname, FL_DEPLOYMENT: env.owner.deploymentId, FL_SUBMISSION: submission.slice(0, SOLUTION_MAX) };
  const grader = await runtime.createContainer({
    owner: env.owner,
    role: "grader",
    image: challenge.image,
    hostname: "fl-grader",
    network: env.network.name,
    expiresAt: new Date(Date.now() + (challenge.check.timeoutSeconds + 30) * 1000),
    pidNamespaceOf: env.target.id,
    extraCapabilities: graderCapabilities,
  });
  let result: RunResult;
  try {
    result = await runScript(runtime, grader.id, `${graderPrelude}\n${challenge.check.script}`, challenge.check.timeoutSeconds, scriptEnv);
  } finally {
    await runtime.remove(grader.id);
  }
  const feedback = result.timedOut ? `The check did not finish within ${challenge.check.timeoutSeconds}s.` : tail(result.stdout.trim() || result.stderr.trim(), 2000);
  return { passed: result.exitCode === 0 && !result.timedOut, feedback, timedOut: result.timedOut, durationMs: Math.round(performance.now() - started) };
}

/** Runs the reference solution inside the target as the user would (CI, `npm run challenge`):
 *  without the platform's values, so it must find the fault the way a person does. */
export function runSolution(runtime: Runtime, challenge: Challenge, env: Environment) {
  return runAsUser(runtime, env, challenge.solution.script, 120);
}

/** The written answer a reference solution gives: its last `ANSWER: ...` line (what a person
 *  would write after finding the fault), or a plain sentence when the challenge asks nothing. */
export function referenceAnswer(solutionStdout: string): string {
  const line = solutionStdout.split("\n").reverse().find((l) => l.startsWith("ANSWER:"));
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
