// The fakes suite (docs/decisions/008-grading-threat-model.md): for every challenge, what a hostile
// root user does instead of fixing must be refused by the check, against the real engine.
// - the challenge's own fakes (challenges/<slug>/fakes/*.sh: stand-ins on the ports the check
//   observes, the real program started another way, files written to look fixed), each on a
//   fresh deployment: the check must fail, and for a reason other than the untouched fault's (so
//   a fake that silently did nothing cannot pass this test);
// - fakes of every tool in the writable directories on PATH: the verdict must not change at all;
// - a preload file on a FIXED system: refused, and accepted again once it is gone.
import { randomBytes } from "node:crypto";
import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { loadChallenges, type Challenge } from "../../server/runtime/challenges.ts";
import { createDockerRuntime } from "../../server/runtime/docker/index.ts";
import { provision, referenceAnswer, runAsUser, runCheck, runSetup, runSolution, type Environment, type ScenarioValues } from "../../server/runtime/scenario.ts";

const docker = new Docker();
const runtime = createDockerRuntime({ docker });
const run = `fk${randomBytes(3).toString("hex")}`;
const challenges = loadChallenges();
let serial = 0;

afterAll(async () => {
  const ids = new Set((await runtime.list()).map((c) => c.owner.deploymentId).filter((d) => d.startsWith(run)));
  await Promise.all([...ids].map((d) => runtime.removeDeployment(d)));
});

/** Tools a check might call, faked in every writable directory on a root shell's PATH. */
const TOOLS = "bash sh dash curl wget ss netstat df du cat grep awk sed python3 nginx sha256sum md5sum ls ps pgrep kill sleep timeout env readlink stat tr cut head tail wc hostname ip lsof date find mktemp rm sort tee";
const FAKE_TOOLS = `
for d in /usr/local/bin /usr/local/sbin; do
  mkdir -p "$d"
  for t in ${TOOLS}; do
    printf '#!/bin/sh\\necho "HTTP/1.1 200 OK"; echo "Server: nginx"; echo ok; exit 0\\n' >"$d/$t"
    chmod 0755 "$d/$t"
  done
done
`;

async function deployed(challenge: Challenge): Promise<{ env: Environment; values: ScenarioValues }> {
  const owner = { deploymentId: `${run}-${++serial}-${challenge.id.slice(0, 16)}`, userId: "ci", challengeId: challenge.id };
  const env = await provision(runtime, challenge, owner, new Date(Date.now() + 10 * 60_000));
  const { values } = await runSetup(runtime, challenge, env);
  return { env, values };
}

async function asUser(env: Environment, script: string) {
  const r = await runAsUser(runtime, env, script, 60);
  expect(r.timedOut, `${r.stdout}\n${r.stderr}`).toBe(false);
  return r;
}

for (const challenge of challenges) {
  describe(`${challenge.id}: fakes are refused`, () => {
    it("has fakes of its own", () => {
      expect(challenge.fakes.length).toBeGreaterThan(0);
    });

    for (const fake of challenge.fakes) {
      it.concurrent(`refuses ${fake.name}`, async () => {
        const { env, values } = await deployed(challenge);
        try {
          const broken = await runCheck(runtime, challenge, env, values, "fixed");
          expect(broken.passed, broken.feedback).toBe(false);
          await asUser(env, fake.script);
          const faked = await runCheck(runtime, challenge, env, values, "fixed");
          console.log(`[${challenge.id}/${fake.name}] ${faked.feedback.replace(/\n/g, " ")}`);
          expect(faked.passed, faked.feedback).toBe(false);
          expect(faked.feedback, "the fake changed nothing the check sees: it proves nothing").not.toBe(broken.feedback);
        } finally {
          await runtime.removeDeployment(env.owner.deploymentId);
        }
      });
    }

    it.concurrent("is not swayed by fake tools in /usr/local", async () => {
      const { env, values } = await deployed(challenge);
      try {
        // Timings in the client's error text ("after 3 ms") vary between two runs.
        const steady = (text: string) => text.replace(/\d+ ms/g, "N ms");
        const broken = await runCheck(runtime, challenge, env, values, "fixed");
        const again = await runCheck(runtime, challenge, env, values, "fixed");
        await asUser(env, FAKE_TOOLS);
        const faked = await runCheck(runtime, challenge, env, values, "fixed");
        expect(faked.passed, faked.feedback).toBe(false);
        expect(faked.feedback).not.toContain("HTTP/1.1 200 OK");
        // Where the check says the same thing twice on the broken system, the fake tools must not
        // change a word of it (checks that measure something over time may word it differently).
        if (steady(broken.feedback) === steady(again.feedback)) expect(steady(faked.feedback)).toBe(steady(broken.feedback));
      } finally {
        await runtime.removeDeployment(env.owner.deploymentId);
      }
    });

    it.concurrent("refuses a fixed system with a preload file, and accepts it once the file is gone", async () => {
      const { env, values } = await deployed(challenge);
      try {
        const fix = await runSolution(runtime, challenge, env);
        expect(fix.exitCode, `${fix.stdout}\n${fix.stderr}`).toBe(0);
        const answer = referenceAnswer(fix.stdout);
        await asUser(env, "echo /usr/local/lib/libhook.so >/etc/ld.so.preload");
        const preloaded = await runCheck(runtime, challenge, env, values, answer);
        expect(preloaded.passed).toBe(false);
        expect(preloaded.feedback).toMatch(/ld\.so\.preload/);
        await asUser(env, "rm /etc/ld.so.preload");
        const clean = await runCheck(runtime, challenge, env, values, answer);
        expect(clean.passed, clean.feedback).toBe(true);
      } finally {
        await runtime.removeDeployment(env.owner.deploymentId);
      }
    });
  });
}

describe("the grader, seen from inside the target", () => {
  const challenge = challenges.find((c) => c.id === "disk-full-deleted-log")!;
  it("shows its processes but none of their environment, files or input", async () => {
    const { env, values } = await deployed(challenge);
    try {
      // Fixed first, so the check runs to its end (every inspection, and a pause) while watched.
      const fix = await runSolution(runtime, challenge, env);
      expect(fix.exitCode, fix.stderr).toBe(0);
      // A root user watches every process while grading runs (bash builtins only, so each sweep
      // is quick enough to catch the grader's short-lived inspector runs), until told to stop.
      await asUser(
        env,
        `cat >/root/watch.sh <<'SH'
while [ ! -e /root/stop ] && [ $SECONDS -lt 120 ]; do
  for p in /proc/[0-9]*; do
    mapfile -d '' args <"$p/cmdline" 2>/dev/null || continue
    [[ " \${args[*]} " == *fl.py* ]] || continue
    echo seen >>/root/seen
    { tr '\0' '\n' <"$p/environ" | grep FL_; } >>/root/leak 2>/dev/null
    ls "$p/root/tmp/" >>/root/leak 2>/dev/null
    head -c 100 "$p/fd/0" >>/root/leak 2>/dev/null
  done
done
SH
setsid bash /root/watch.sh </dev/null >/dev/null 2>&1 &`,
      );
      const outcome = await runCheck(runtime, challenge, env, values, referenceAnswer(fix.stdout));
      expect(outcome.passed, outcome.feedback).toBe(true);
      const seen = await asUser(env, "touch /root/stop; sleep 1; sort -u /root/seen 2>/dev/null; echo; cat /root/leak 2>/dev/null | head -c 2000");
      const [watched, leaked] = seen.stdout.split("\n\n");
      expect(watched?.trim(), "the watcher never saw the grader: this test proves nothing").toBe("seen");
      expect(leaked?.trim() ?? "").toBe("");
    } finally {
      await runtime.removeDeployment(env.owner.deploymentId);
    }
  });
});
