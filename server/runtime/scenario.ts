// A challenge's life in a deployment, over any Runtime: provision the hardened environment, run
// setup.sh (the fault; its JSON output is kept by the platform), run check.sh out of the user's
// reach, run the reference solution (CI). The deployments and grading services build on these.
//
// Scripts are fed to `bash -s` on stdin: they are never written into the user's container.
// check.sh runs either in a short-lived grader container on the deployment's network
// (runs_in: probe, seeing the target as a client would) or inside the target (runs_in: target,
// where only binaries from the read-only /usr are used).
import type { Challenge } from "./challenges.ts";
import { runCommand, type RunResult } from "./exec.ts";
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

/** Runs check.sh with the deployment's values and the user's written solution. */
export async function runCheck(runtime: Runtime, challenge: Challenge, env: Environment, values: ScenarioValues, submission = ""): Promise<CheckOutcome> {
  const started = performance.now();
  const scriptEnv = { ...valueEnv(values), FL_TARGET: challenge.hostname, FL_DEPLOYMENT: env.owner.deploymentId, FL_SUBMISSION: submission.slice(0, 16_384) };
  let result: RunResult;
  if (challenge.check.runsIn === "probe") {
    const probe = await runtime.createContainer({
      owner: env.owner,
      role: "probe",
      image: challenge.image,
      hostname: "fl-grader",
      network: env.network.name,
      expiresAt: new Date(Date.now() + (challenge.check.timeoutSeconds + 30) * 1000),
    });
    try {
      result = await runScript(runtime, probe.id, challenge.check.script, challenge.check.timeoutSeconds, scriptEnv);
    } finally {
      await runtime.remove(probe.id);
    }
  } else {
    result = await runScript(runtime, env.target.id, challenge.check.script, challenge.check.timeoutSeconds, scriptEnv);
  }
  const feedback = result.timedOut ? `The check did not finish within ${challenge.check.timeoutSeconds}s.` : tail(result.stdout.trim() || result.stderr.trim(), 2000);
  return { passed: result.exitCode === 0 && !result.timedOut, feedback, timedOut: result.timedOut, durationMs: Math.round(performance.now() - started) };
}

/** Runs the reference solution inside the target (what CI does between two checks). */
export function runSolution(runtime: Runtime, challenge: Challenge, env: Environment, values: ScenarioValues) {
  return runScript(runtime, env.target.id, challenge.solution.script, 120, { ...valueEnv(values), FL_TARGET: challenge.hostname });
}

function runScript(runtime: Runtime, containerId: string, script: string, timeoutSeconds: number, env: Record<string, string>) {
  return runCommand(runtime, containerId, ["bash", "-s"], {
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
