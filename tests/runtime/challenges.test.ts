// Every challenge in challenges/, against the real engine: its image exists (npm run images), a
// deployment starts, setup.sh injects the fault, check.sh FAILS, solution.sh (which gets none of
// the platform's values) finds and fixes it, check.sh PASSES with the written answer the solution
// gives, and removing the deployment leaves nothing. Challenges that list `variants` in
// challenge.yaml are run once per forced variant. Randomisation: two deployments differ, and a
// fixed deployment is not accepted with the other deployment's values or written answer.
import { randomBytes } from "node:crypto";
import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { loadChallenges, type Challenge } from "../../server/runtime/challenges.ts";
import { createDockerRuntime } from "../../server/runtime/docker/index.ts";
import { LABEL } from "../../server/runtime/policy.ts";
import { provision, referenceAnswer, runAsUser, runCheck, runSetup, runSolution } from "../../server/runtime/scenario.ts";

const docker = new Docker();
const runtime = createDockerRuntime({ docker });
const run = `ch${randomBytes(3).toString("hex")}`;
const challenges = loadChallenges();
let serial = 0;

afterAll(async () => {
  const ids = new Set((await runtime.list()).map((c) => c.owner.deploymentId).filter((d) => d.startsWith(run)));
  await Promise.all([...ids].map((d) => runtime.removeDeployment(d)));
});

async function deploy(challenge: Challenge, variant = "") {
  await docker.getImage(challenge.image).inspect().catch(() => {
    throw new Error(`${challenge.image} is missing: run npm run images`);
  });
  const owner = { deploymentId: `${run}-${++serial}-${challenge.id.slice(0, 20)}`, userId: "ci", challengeId: challenge.id };
  const env = await provision(runtime, challenge, owner, new Date(Date.now() + 10 * 60_000));
  const { values } = await runSetup(runtime, challenge, env, variant ? { FAULTLINE_FAULT: variant } : {});
  return { env, values, owner };
}

async function solve(challenge: Challenge, env: Awaited<ReturnType<typeof deploy>>["env"]) {
  const fix = await runSolution(runtime, challenge, env);
  expect(fix.exitCode, `${fix.stdout}\n${fix.stderr}`).toBe(0);
  return referenceAnswer(fix.stdout);
}

it("finds the challenges", () => {
  expect(challenges.map((c) => c.id)).toEqual(expect.arrayContaining(["disk-full-deleted-log", "nginx-broken-config"]));
});

for (const challenge of challenges) {
  describe(challenge.id, () => {
    for (const variant of challenge.variants.length ? challenge.variants : [""]) {
      it.concurrent(`setup breaks it, check fails, the solution fixes it, check passes${variant ? ` (${variant})` : ""}`, async () => {
        const t0 = performance.now();
        const { env, values, owner } = await deploy(challenge, variant);
        const t1 = performance.now();
        if (variant) expect(values.fault).toBe(variant);

        const before = await runCheck(runtime, challenge, env, values, "not fixed yet");
        expect(before.passed, before.feedback).toBe(false);
        expect(before.feedback.length).toBeGreaterThan(10);

        // The check is never left inside the user's container.
        const traces = await runAsUser(runtime, env, "grep -rl 'Grading:' /etc /var /root /tmp /run /srv /opt /usr/local 2>/dev/null || true");
        expect(traces.stdout.trim()).toBe("");

        const answer = await solve(challenge, env);
        if (challenge.asksForAnswer) {
          const unanswered = await runCheck(runtime, challenge, env, values, "I fixed it.");
          expect(unanswered.passed, "the fix alone passed a challenge that asks a question").toBe(false);
        }
        const after = await runCheck(runtime, challenge, env, values, answer);
        expect(after.passed, after.feedback).toBe(true);
        console.log(`[${challenge.id}${variant ? `/${variant}` : ""}] start+setup ${Math.round(t1 - t0)} ms, check ${before.durationMs}/${after.durationMs} ms`);

        await runtime.removeDeployment(owner.deploymentId);
        const leftovers = [
          ...(await docker.listContainers({ all: true, filters: { label: [`${LABEL.deployment}=${owner.deploymentId}`] } })),
          ...(await docker.listNetworks({ filters: { label: [`${LABEL.deployment}=${owner.deploymentId}`] } })),
          ...((await docker.listVolumes({ filters: { label: [`${LABEL.deployment}=${owner.deploymentId}`] } })).Volumes ?? []),
        ];
        expect(leftovers).toEqual([]);
      });
    }

    it.concurrent("differs per deployment: another deployment's values or answer do not pass", async () => {
      const [a, b] = await Promise.all([deploy(challenge), deploy(challenge)]);
      try {
        expect(JSON.stringify(b.values), "two deployments got the same values").not.toBe(JSON.stringify(a.values));
        const [answerA, answerB] = await Promise.all([solve(challenge, a.env), solve(challenge, b.env)]);
        // What a write-up made on deployment A encodes (its values) does not fit deployment B.
        const withA = await runCheck(runtime, challenge, b.env, a.values, answerB);
        expect(withA.passed, "deployment B passed with deployment A's values").toBe(false);
        if (challenge.asksForAnswer && answerA !== answerB) {
          const copied = await runCheck(runtime, challenge, b.env, b.values, answerA);
          expect(copied.passed, "deployment B accepted deployment A's written answer").toBe(false);
        }
        const own = await runCheck(runtime, challenge, b.env, b.values, answerB);
        expect(own.passed, own.feedback).toBe(true);
      } finally {
        await Promise.all([runtime.removeDeployment(a.owner.deploymentId), runtime.removeDeployment(b.owner.deploymentId)]);
      }
    });
  });
}
