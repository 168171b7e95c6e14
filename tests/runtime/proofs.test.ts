// Every challenge, proven against the real engine (docs/decisions/008-grading-threat-model.md):
//
// One deployment per variant: setup breaks it and the check FAILS; fake tools planted in the
// writable directories on root's PATH do not change a word of the verdict; the check leaves no
// trace in the deployment; the reference solution (which gets none of the platform's values) fixes
// it; a right written answer is judged right and a list of every candidate is refused by the
// platform; the check PASSES, on the live system and on a booted copy of its disk, while a root
// watcher inside tries to find the grader (it must see nothing of it) and while every grader
// command line is watched from the host (none may carry one of the deployment's values); then a
// preload file on the fixed system is refused and accepted again once gone.
//
// Each of the challenge's fakes (fakes/*.sh: stand-ins, the real program started another way,
// files written to look fixed, and one per class of FAKE_CLASSES where it applies) on a fresh,
// broken deployment: the check must refuse it for another reason than the untouched fault's (a
// fake that silently did nothing proves nothing). Randomisation (on the first variant's
// deployment): another deployment's values differ, and the fixed system is not accepted with them,
// nor its written answer with theirs.
import { randomBytes } from "node:crypto";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgeAnswer } from "#server/core/answers.ts";
import { FAKE_CLASSES, loadChallenges, type Challenge } from "#server/library/challenges.ts";
import { createDockerRuntime } from "#server/runtime/docker/index.ts";
import { LABEL } from "#server/runtime/policy.ts";
import { provision, referenceAnswer, runAsUser, runCheck, runSetup, runSolution, type Environment, type ScenarioValues } from "#server/runtime/scenario.ts";
import { startArgvWatch, valuesIn, type ArgvWatch } from "../support/argv-watch.ts";

const docker = new Docker();
const runtime = createDockerRuntime({ docker });
const run = `pr${randomBytes(3).toString("hex")}`;
const only = process.env.CHALLENGE ? new Set(process.env.CHALLENGE.split(",")) : null;
const challenges = loadChallenges().filter((c) => !only || only.has(c.id));
let serial = 0;
let watch: ArgvWatch;

beforeAll(async () => {
  watch = await startArgvWatch();
});
afterAll(async () => {
  watch?.stop();
  const ids = new Set((await runtime.list()).map((c) => c.owner.deploymentId).filter((d) => d.startsWith(run)));
  await Promise.all([...ids].map((d) => runtime.removeDeployment(d)));
});

/** Tools a check might call, faked in every writable directory on a root shell's PATH. */
const TOOLS =
  "bash sh dash curl wget ss netstat df du cat grep awk sed python3 nginx sha256sum md5sum ls ps pgrep kill sleep timeout env readlink stat tr cut head tail wc hostname ip lsof date find mktemp rm sort tee nc dig getent openssl ssh";
const FAKE_TOOLS = `
for d in /usr/local/bin /usr/local/sbin; do
  mkdir -p "$d"
  for t in ${TOOLS}; do
    printf '#!/bin/sh\\necho "HTTP/1.1 200 OK"; echo "Server: nginx"; echo ok; exit 0\\n' >"$d/$t"
    chmod 0755 "$d/$t"
  done
done
`;
const REMOVE_FAKE_TOOLS = `for t in ${TOOLS}; do /bin/rm -f /usr/local/bin/$t /usr/local/sbin/$t; done`;

/** A root watcher inside the target: every process it can see that is not of its own cgroup is
 *  recorded, and it SIGSTOPs then SIGKILLs each one (what a player would do to the grader). */
const GRADER_HUNTER = `cat >/root/hunt.sh <<'SH'
own=$(cat /proc/self/cgroup)
while [ ! -e /root/stop-hunt ] && [ $SECONDS -lt 300 ]; do
  for p in /proc/[0-9]*; do
    [ "$(cat $p/cgroup 2>/dev/null)" = "$own" ] && continue
    [ -e $p/cmdline ] || continue
    cmd=$(tr '\\0' ' ' <$p/cmdline 2>/dev/null)
    # The engine entering the container to start an exec (the test's own, never the grader's):
    # "runc init" in the engine's cgroup, then in ours, then the command. Read between the two
    # (CI: the test's own "/bin/bash -s" was recorded), so its cgroup is read again after the command.
    [ "$cmd" = "runc init " ] && continue
    [ "$(cat $p/cgroup 2>/dev/null)" = "$own" ] && continue
    echo "$cmd" >>/root/hunted
    kill -STOP \${p#/proc/} 2>/dev/null; kill -KILL \${p#/proc/} 2>/dev/null
  done
done
SH
setsid bash /root/hunt.sh </dev/null >/dev/null 2>&1 &`;

async function deployed(challenge: Challenge, variant = ""): Promise<{ env: Environment; values: ScenarioValues }> {
  await docker
    .getImage(challenge.image)
    .inspect()
    .catch(() => {
      throw new Error(`${challenge.image} is missing: run npm run images`);
    });
  const owner = { deploymentId: `${run}-${++serial}-${challenge.id.slice(0, 20)}`, userId: "ci", challengeId: challenge.id };
  const env = await provision(runtime, challenge, owner, new Date(Date.now() + 15 * 60_000));
  const { values } = await runSetup(runtime, challenge, env, variant ? { FAULTLINE_FAULT: variant } : {});
  if (variant) expect(values.fault).toBe(variant);
  return { env, values };
}

async function asUser(env: Environment, script: string) {
  const r = await runAsUser(runtime, env, script, 60);
  expect(r.timedOut, `${r.stdout}\n${r.stderr}`).toBe(false);
  return r;
}

/** As the platform grades a submission: the answer first (when the challenge asks one), then the check. */
async function grade(challenge: Challenge, env: Environment, values: ScenarioValues, answer: string) {
  if (challenge.answer.length) {
    const judged = judgeAnswer(challenge.answer, values, answer);
    if (judged.verdict !== "right") return { passed: false, feedback: judged.feedback, phase: "answer" as const };
  }
  return runCheck(runtime, challenge, env, values);
}

/** The answer of a player who found the right one of each part (its first spelling). */
function rightAnswer(challenge: Challenge, values: ScenarioValues) {
  return challenge.answer.map((p) => firstOf(values[p.values[0]!] ?? "")).join(" ") || "fixed";
}
function firstOf(list: string) {
  const text = list.trim();
  if (text.startsWith("[")) return String((JSON.parse(text) as unknown[])[0] ?? "");
  return text.split(/\s+/)[0] ?? "";
}
/** An answer that names every candidate the deployment lists, of every part. */
function everyCandidate(challenge: Challenge, values: ScenarioValues) {
  return challenge.answer
    .flatMap((p) => ("values" in p.candidates ? [values[p.candidates.values] ?? "", ...p.values.map((k) => values[k] ?? "")] : []))
    .join(" ")
    .replace(/[[\]",]/g, " ");
}

async function solve(challenge: Challenge, env: Environment) {
  await asUser(env, REMOVE_FAKE_TOOLS);
  const fix = await runSolution(runtime, challenge, env);
  expect(fix.exitCode, `${fix.stdout}\n${fix.stderr}`).toBe(0);
  return referenceAnswer(fix.stdout);
}

// Timings in a client's error text ("after 3 ms") vary between two runs.
const steady = (text: string) => text.replace(/\d+ ms/g, "N ms");
// A verdict that names the grader's own address ("refuses the client 172.30.36.201") words it
// anew at each check: every check runs in a new grader container, and on a small deployment
// network (a /28) the engine hands out the addresses round, so a third check may get the first
// one's address back (internal-api-unreachable/allowlist failed a try so). What the fake tools
// must not change is the rest of the words.
const unaddressed = (text: string) => steady(text).replace(/\b\d{1,3}(\.\d{1,3}){3}\b/g, "{address}");

/** The verdict with the deployment's values written as their names ({port}), so two deployments
 *  of one variant, drawn with other values, word the same verdict the same way. */
function valueless(text: string, values: ScenarioValues) {
  const named = Object.entries(values)
    .filter(([, v]) => v.length >= 2)
    .sort((a, b) => b[1].length - a[1].length);
  return steady(named.reduce((t, [k, v]) => t.split(v).join(`{${k}}`), text));
}

/** Each variant's broken verdict, as its proof saw it (valueless), or null when the proof failed
 *  before it looked: a fake's verdict must differ from it (a fake that changes nothing the check
 *  sees proves nothing), and every fake need not first check its own broken deployment. A
 *  variant's proof starts before its challenge's fakes (concurrent tests start in the order they
 *  are declared), so a fake waits at most for that one check; a proof filtered out (-t) never
 *  started, and the fake looks for itself. */
const brokenVerdicts = new Map<string, { promise: Promise<string | null>; settle: (v: string | null) => void }>();
function proofStarted(key: string) {
  let settle!: (v: string | null) => void;
  const promise = new Promise<string | null>((r) => (settle = r));
  const entry = brokenVerdicts.get(key) ?? { promise, settle };
  brokenVerdicts.set(key, entry);
  return entry;
}

/** Prints a failure as it happens: vitest shows only the last try's error, and a test that passes
 *  on its retry would leave no trace of why the first one failed (a flake is a defect to find). */
const firstTryLog =
  (label: string) =>
  ({ task }: { task: { result?: { errors?: { message?: string }[] } } }) =>
    console.log(
      `[${label}] FAILED A TRY: ${(task.result?.errors ?? [])
        .map((e) => e.message ?? String(e))
        .join(" | ")
        .slice(0, 2000)}`,
    );

for (const challenge of challenges) {
  describe(challenge.id, () => {
    it("has a fake of every class that applies to it, or says why the class does not", () => {
      expect(challenge.fakes.length).toBeGreaterThan(0);
      for (const cls of FAKE_CLASSES) {
        const has = challenge.fakes.some((f) => f.name.startsWith(`${cls}-`));
        expect(has || Boolean(challenge.notApplicableFakes[cls]), `${challenge.id}: no fakes/${cls}-*.sh and no not_applicable_fakes.${cls}`).toBe(true);
        if (has) expect(challenge.notApplicableFakes[cls], `${challenge.id}: a ${cls} fake exists, so the class applies`).toBeUndefined();
      }
    });

    const variants = challenge.variants.length ? challenge.variants : [""];
    variants.forEach((variant, index) => {
      it.concurrent(
        `proof${variant ? ` (${variant})` : ""}: broken, unswayed by fake tools, fixed by the solution, graded right live and after a boot, out of the player's reach`,
        async ({ onTestFailed }) => {
          onTestFailed(firstTryLog(`${challenge.id}${variant ? `/${variant}` : ""}`));
          const t0 = performance.now();
          const seen = proofStarted(`${challenge.id}/${variant}`);
          const { env, values } = await deployed(challenge, variant).catch((e) => {
            seen.settle(null);
            throw e;
          });
          try {
            const before = await runCheck(runtime, challenge, env, values);
            seen.settle(before.passed ? null : valueless(before.feedback, values));
            expect(before.passed, before.feedback).toBe(false);
            expect(before.feedback.length).toBeGreaterThan(10);
            // The check is never left inside the user's container.
            const traces = await runAsUser(runtime, env, "grep -rl 'Grading:' /etc /var /root /tmp /run /srv /opt /usr/local 2>/dev/null || true");
            expect(traces.stdout.trim()).toBe("");

            await asUser(env, FAKE_TOOLS);
            const faked = await runCheck(runtime, challenge, env, values);
            expect(faked.passed, faked.feedback).toBe(false);
            expect(faked.feedback).not.toContain("HTTP/1.1 200 OK");
            // The fake tools must not change a word of the verdict. A check that measures something
            // over time may word it differently each time: then a second look without the fakes
            // must differ from the first as well.
            if (unaddressed(faked.feedback) !== unaddressed(before.feedback)) {
              await asUser(env, REMOVE_FAKE_TOOLS);
              const again = await runCheck(runtime, challenge, env, values);
              expect(unaddressed(again.feedback), "fake tools in /usr/local changed the verdict's words").not.toBe(unaddressed(before.feedback));
            }

            const answer = await solve(challenge, env);
            if (challenge.answer.length) {
              expect(judgeAnswer(challenge.answer, values, answer), "the reference answer").toEqual({ verdict: "right" });
              if (challenge.answer.some((p) => "values" in p.candidates)) {
                expect(judgeAnswer(challenge.answer, values, everyCandidate(challenge, values)).verdict, "a list of every candidate").toBe("ambiguous");
              }
              const unanswered = await grade(challenge, env, values, "I fixed it.");
              expect(unanswered.passed, "the fix alone passed a challenge that asks a question").toBe(false);
            }
            await asUser(env, GRADER_HUNTER);
            const after = await grade(challenge, env, values, answer);
            await asUser(env, "touch /root/stop-hunt; sleep 0.5");
            expect(after.passed, after.feedback).toBe(true);
            expect(after.phase).toBe("boot");
            const hunted = await runAsUser(runtime, env, "cat /root/hunted 2>/dev/null || true");
            expect(hunted.stdout.trim(), "a root user inside saw processes that are not the deployment's").toBe("");
            expect(valuesIn(watch.argvsOf(env.owner.deploymentId), values), "a grader command line carries one of the deployment's values").toEqual([]);
            console.log(
              `[${challenge.id}${variant ? `/${variant}` : ""}] total ${Math.round(performance.now() - t0)} ms, check ${JSON.stringify((after as { timings?: unknown }).timings)}`,
            );

            if (index === 0) {
              // A preload file on the fixed system is refused (the live phase's gate).
              await asUser(env, "echo /usr/local/lib/libhook.so >/etc/ld.so.preload");
              const preloaded = await runCheck(runtime, challenge, env, values);
              expect(preloaded.passed).toBe(false);
              expect(preloaded.feedback).toMatch(/ld\.so\.preload/);
              await asUser(env, "rm /etc/ld.so.preload");
              // Varied per deployment: another deployment's values differ, and this fixed system is
              // not accepted with them, nor its written answer with the other deployment's values.
              const other = await deployed(challenge);
              try {
                expect(JSON.stringify(other.values), "two deployments got the same values").not.toBe(JSON.stringify(values));
                const withOther = await runCheck(runtime, challenge, env, other.values);
                expect(withOther.passed, "a fixed deployment passed with another deployment's values").toBe(false);
                // Its written answer is judged against that deployment's values, not a constant: where the
                // two right answers differ, this one is not right there. (A question whose answer is one
                // of a few files, exposed-payment-secrets', can have the same answer in two deployments.)
                const sameAnswer = challenge.answer.every((p) => p.values.some((k) => firstOf(values[k] ?? "") === firstOf(other.values[k] ?? "")));
                if (challenge.answer.length && !sameAnswer)
                  expect(judgeAnswer(challenge.answer, other.values, answer).verdict, "another deployment accepted this written answer").not.toBe("right");
              } finally {
                await runtime.removeDeployment(other.env.owner.deploymentId);
              }
            }
          } finally {
            seen.settle(null); // (no effect once settled)
            await runtime.removeDeployment(env.owner.deploymentId);
          }
          const leftovers = [
            ...(await docker.listContainers({ all: true, filters: { label: [`${LABEL.deployment}=${env.owner.deploymentId}`] } })),
            ...(await docker.listNetworks({ filters: { label: [`${LABEL.deployment}=${env.owner.deploymentId}`] } })),
            ...((await docker.listVolumes({ filters: { label: [`${LABEL.deployment}=${env.owner.deploymentId}`] } })).Volumes ?? []),
          ];
          expect(leftovers).toEqual([]);
        },
      );
    });

    for (const fake of challenge.fakes) {
      it.concurrent(`refuses the fake ${fake.name}`, async ({ onTestFailed }) => {
        onTestFailed(firstTryLog(`${challenge.id}/${fake.name}`));
        const variant = variants[serial % variants.length]!;
        const { env, values } = await deployed(challenge, variant);
        try {
          // The variant's broken verdict as its proof saw it; looked at here only if that proof failed first.
          let broken = (await brokenVerdicts.get(`${challenge.id}/${variant}`)?.promise) ?? null;
          if (broken === null) {
            const own = await runCheck(runtime, challenge, env, values);
            expect(own.passed, own.feedback).toBe(false);
            broken = valueless(own.feedback, values);
          }
          await asUser(env, fake.script);
          // Submitted with the right answer: a fake must fool the check of the system, not the answer's.
          const faked = await grade(challenge, env, values, rightAnswer(challenge, values));
          console.log(`[${challenge.id}/${fake.name}] ${faked.feedback.replace(/\n/g, " ")}`);
          expect(faked.passed, faked.feedback).toBe(false);
          expect(valueless(faked.feedback, values), "the fake changed nothing the check sees: it proves nothing").not.toBe(broken);
        } finally {
          await runtime.removeDeployment(env.owner.deploymentId);
        }
      });
    }
  });
}
