// Every challenge in challenges/, against the real engine: its image exists (npm run images),
// a deployment starts, setup.sh injects the fault, check.sh FAILS, solution.sh fixes it, check.sh
// PASSES, and removing the deployment leaves nothing. Challenges whose setup picks a fault at
// random are run once per fault.
import { randomBytes } from "node:crypto";
import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { loadChallenges } from "../../server/runtime/challenges.ts";
import { createDockerRuntime } from "../../server/runtime/docker.ts";
import { LABEL } from "../../server/runtime/policy.ts";
import { provision, runCheck, runSetup, runSolution } from "../../server/runtime/scenario.ts";

/** Variants forced through setup.sh's environment (FAULTLINE_FAULT). */
const VARIANTS: Record<string, string[]> = {
  "nginx-broken-config": ["missing_semicolon", "unknown_directive", "missing_include", "unbalanced_brace"],
  "internal-api-unreachable": ["loopback_bind", "wrong_port", "port_taken", "allowlist"],
};

const docker = new Docker();
const runtime = createDockerRuntime({ docker });
const run = `ch${randomBytes(3).toString("hex")}`;
const challenges = loadChallenges();

afterAll(async () => {
  const ids = new Set((await runtime.list()).map((c) => c.owner.deploymentId).filter((d) => d.startsWith(run)));
  await Promise.all([...ids].map((d) => runtime.removeDeployment(d)));
});

it("finds the challenges", () => {
  expect(challenges.map((c) => c.id)).toEqual(expect.arrayContaining(["disk-full-deleted-log", "nginx-broken-config"]));
});

for (const challenge of challenges) {
  describe(challenge.id, () => {
    for (const variant of VARIANTS[challenge.id] ?? [""]) {
      it(`setup breaks it, check fails, the solution fixes it, check passes${variant ? ` (${variant})` : ""}`, async () => {
        await docker.getImage(challenge.image).inspect().catch(() => {
          throw new Error(`${challenge.image} is missing: run npm run images`);
        });
        const owner = { deploymentId: `${run}-${challenge.id.slice(0, 12)}-${variant.slice(0, 12) || "x"}`, userId: "ci", challengeId: challenge.id };
        const t0 = performance.now();
        const env = await provision(runtime, challenge, owner, new Date(Date.now() + 10 * 60_000));
        const t1 = performance.now();
        const { values } = await runSetup(runtime, challenge, env, variant ? { FAULTLINE_FAULT: variant } : {});
        const t2 = performance.now();
        if (variant) expect(values.fault).toBe(variant);

        const before = await runCheck(runtime, challenge, env, values, "not fixed yet");
        expect(before.passed, before.feedback).toBe(false);
        expect(before.feedback.length).toBeGreaterThan(10);

        // The check is never left inside the user's container.
        const traces = await runtime.exec(env.target.id, { command: ["bash", "-c", "grep -rl 'Grading:' /etc /var /root /tmp /run /srv /opt /usr/local 2>/dev/null || true"] });
        let found = "";
        traces.stdout.on("data", (c: Buffer) => (found += c));
        await traces.wait();
        await new Promise((r) => setTimeout(r, 100));
        expect(found.trim()).toBe("");

        const fix = await runSolution(runtime, challenge, env);
        expect(fix.exitCode, `${fix.stdout}\n${fix.stderr}`).toBe(0);
        const after = await runCheck(runtime, challenge, env, values, "fixed it");
        expect(after.passed, after.feedback).toBe(true);
        console.log(
          `[${challenge.id}${variant ? `/${variant}` : ""}] start ${Math.round(t1 - t0)} ms, setup ${Math.round(t2 - t1)} ms, check ${before.durationMs}/${after.durationMs} ms`,
        );

        await runtime.removeDeployment(owner.deploymentId);
        const leftovers = [
          ...(await docker.listContainers({ all: true, filters: { label: [`${LABEL.deployment}=${owner.deploymentId}`] } })),
          ...(await docker.listNetworks({ filters: { label: [`${LABEL.deployment}=${owner.deploymentId}`] } })),
          ...((await docker.listVolumes({ filters: { label: [`${LABEL.deployment}=${owner.deploymentId}`] } })).Volumes ?? []),
        ];
        expect(leftovers).toEqual([]);
      });
    }
  });
}
