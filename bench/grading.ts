// What grading costs, and whether an honest fix ever fails it (decision 008):
//   checks   per challenge: a deployment set up, fixed by its reference solution, then `runs`
//            passing checks (live, then the boot copy), printing p50/p95 of the whole check and of
//            each part (live check, copy, inspect.sh, boot, the copy's check). Goal: p95 < 10 s.
//   soak     every variant's reference solution on a fresh deployment `soak` times, graded once
//            each: the refusal rate (goal 0), with the feedback of every refusal.
//
//   npm run bench:grading -- [runs=5] [soak=5] [challenge,...]   (SOAK_CONCURRENCY=3)
//
// Needs dockerd and the images (scripts/test.sh, or: source scripts/lib.sh && docker_ensure;
// npm run images). Not part of CI: it takes a while.
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { judgeAnswer } from "#server/core/answers.ts";
import { loadChallenges, type Challenge } from "#server/library/challenges.ts";
import { createDockerRuntime } from "#server/runtime/docker/index.ts";
import { provision, referenceAnswer, runCheck, runSetup, runSolution } from "#server/runtime/scenario.ts";

const runs = Number(process.argv[2] ?? 5);
const soak = Number(process.argv[3] ?? 5);
const only = process.argv[4]?.split(",");
const runtime = createDockerRuntime();
const challenges = loadChallenges().filter((c) => !only || only.includes(c.id));
const tag = `bg${randomBytes(3).toString("hex")}`;
let serial = 0;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
};

async function fixedDeployment(challenge: Challenge, variant = "") {
  const owner = { deploymentId: `${tag}-${++serial}`, userId: "bench", challengeId: challenge.id };
  const env = await provision(runtime, challenge, owner, new Date(Date.now() + 20 * 60_000));
  try {
    const { values } = await runSetup(runtime, challenge, env, variant ? { FAULTLINE_FAULT: variant } : {});
    const fix = await runSolution(runtime, challenge, env);
    if (fix.exitCode !== 0) throw new Error(`${challenge.id}${variant ? `/${variant}` : ""}: the solution failed (${fix.exitCode}): ${fix.stderr.slice(-300)}`);
    return { env, values, answer: referenceAnswer(fix.stdout) };
  } catch (e) {
    await runtime.removeDeployment(owner.deploymentId);
    throw e;
  }
}

async function grade(challenge: Challenge, d: Awaited<ReturnType<typeof fixedDeployment>>) {
  if (challenge.answer.length) {
    const judged = judgeAnswer(challenge.answer, d.values, d.answer);
    if (judged.verdict !== "right") return { passed: false, feedback: judged.feedback, durationMs: 0, timings: {} as Record<string, number> };
  }
  return runCheck(runtime, challenge, d.env, d.values);
}

console.log(
  `grading bench: ${challenges.length} challenges, ${runs} checks each, soak ${soak}x every variant; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
const all: number[] = [];
if (runs > 0) {
  console.log("\nchallenge                           p50 ms  p95 ms | live  copy inspect boot  copy-check (p50 ms)");
  for (const challenge of challenges) {
    const d = await fixedDeployment(challenge);
    const times: number[] = [];
    const parts: Record<string, number[]> = {};
    try {
      for (let i = 0; i < runs; i++) {
        const r = await grade(challenge, d);
        if (!r.passed) console.log(`  ${challenge.id}: refused: ${r.feedback}`);
        times.push(r.durationMs);
        for (const [k, v] of Object.entries(r.timings)) (parts[k] ??= []).push(v);
      }
    } finally {
      await runtime.removeDeployment(d.env.owner.deploymentId);
    }
    all.push(...times);
    const p = (k: string) => String(parts[k] ? pct(parts[k]!, 50) : "-").padStart(5);
    console.log(
      `${challenge.id.padEnd(34)} ${String(pct(times, 50)).padStart(7)} ${String(pct(times, 95)).padStart(7)} | ${p("live")} ${p("copy")} ${p("inspect")} ${p("boot")} ${p("bootCheck")}`,
    );
  }
  console.log(`\nall checks: p50 ${pct(all, 50)} ms, p95 ${pct(all, 95)} ms, max ${Math.max(...all)} ms (goal: p95 < 10000 ms per challenge)`);
}

if (soak > 0) {
  let graded = 0;
  const refused: string[] = [];
  // Every (variant, attempt) on a deployment of its own, SOAK_CONCURRENCY at a time (default 3,
  // as the proofs run): 525 of them one after the other would take hours.
  const jobs = challenges.flatMap((challenge) =>
    (challenge.variants.length ? challenge.variants : [""]).flatMap((variant) => Array.from({ length: soak }, (_, i) => ({ challenge, variant, i }))),
  );
  const width = Math.max(1, Number(process.env.SOAK_CONCURRENCY ?? 3));
  let next = 0;
  const started = Date.now();
  async function worker() {
    while (next < jobs.length) {
      const { challenge, variant, i } = jobs[next++]!;
      const label = `${challenge.id}${variant ? `/${variant}` : ""} #${i + 1}`;
      let d: Awaited<ReturnType<typeof fixedDeployment>> | undefined;
      try {
        d = await fixedDeployment(challenge, variant);
        const r = await grade(challenge, d);
        if (!r.passed) refused.push(`${label}: ${r.feedback}`);
      } catch (e) {
        refused.push(`${label}: ${(e as Error).message}`);
      } finally {
        graded++;
        if (d) await runtime.removeDeployment(d.env.owner.deploymentId).catch(() => {});
      }
      if (graded % 25 === 0) console.log(`soak: ${graded}/${jobs.length} graded, ${refused.length} refused, ${Math.round((Date.now() - started) / 1000)} s`);
    }
  }
  await Promise.all(Array.from({ length: width }, worker));
  console.log(
    `\nsoak: ${graded} reference solutions graded, ${refused.length} refused (${((100 * refused.length) / Math.max(1, graded)).toFixed(1)} %; goal 0)`,
  );
  for (const r of refused) console.log(`  ${r}`);
}
