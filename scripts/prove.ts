// The proof of one challenge through the real platform, as a player meets it: a fresh player
// (registered, verified, signed in, SSH key proven), a deployment started through the API and
// waited for, a submission refused on the broken system, the reference solution run through the
// SSH gateway with the OpenSSH client, the written answer it gives accepted; then each of the
// challenge's fakes on a fresh deployment, refused. Used by `npm run challenge -- prove <slug>`
// and by tests/runtime/library.test.ts (one routine, so the tool proves what CI proves).
import type { Challenge } from "#server/library/challenges.ts";
import { referenceAnswer } from "#server/runtime/scenario.ts";
import { clientOptions, runClient } from "../tests/gateway/support.ts";
import { HOST, waitForStatus, type startTestServer } from "../tests/support/server.ts";

type Server = Awaited<ReturnType<typeof startTestServer>>;
type Player = Awaited<ReturnType<Server["player"]>>;

/** Players to run deployments as: each holds one deployment at a time here, and the platform
 *  limits sign-ups per address (10 an hour), so a few are made and reused. They are on Pro: the
 *  library has hard and expert challenges and more medium ones than free allows in a month. */
export function playerPool(server: Server, size = 8) {
  const idle: Player[] = [];
  const waiting: ((p: Player) => void)[] = [];
  let made = 0;
  return {
    async acquire(): Promise<Player> {
      if (made < size) {
        made += 1;
        return server.player({ plan: "pro" });
      }
      const free = idle.shift();
      if (free) return free;
      return new Promise((resolve) => waiting.push(resolve));
    },
    release(p: Player) {
      const next = waiting.shift();
      if (next) next(p);
      else idle.push(p);
    },
  };
}
export type PlayerPool = ReturnType<typeof playerPool>;

export interface ProofStep {
  step: string;
  ok: boolean;
  detail: string;
}

/** One deployment's life: start → ready → (script through ssh) → submit. */
async function attempt(server: Server, pool: PlayerPool, challenge: Challenge, script: string, answer: (stdout: string) => string) {
  const player = await pool.acquire();
  try {
    return await attemptAs(server, player, challenge, script, answer);
  } finally {
    pool.release(player);
  }
}

async function attemptAs(server: Server, player: Player, challenge: Challenge, script: string, answer: (stdout: string) => string) {
  const call = (method: string, path: string, body?: unknown) => server.api.call(method, path, { token: player.token, body });
  const started = await call("POST", `/challenges/${challenge.id}/session/start`, {});
  if (started.status !== 201) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
  try {
    const ready = await waitForStatus(server.api, player.token, challenge.id, (s) => s === "ready" || s === "failed", 120_000);
    if (ready.status !== "ready") throw new Error(`deployment failed: ${JSON.stringify(ready)}`);
    // A person told "Too many attempts. Try again in N seconds." waits N seconds and submits again.
    const submit = async (solution: string) => {
      for (let tries = 0; ; tries++) {
        const r = await call("POST", `/challenges/${challenge.id}/submit`, { solution });
        if (r.status !== 429 || tries >= 5) return r;
        await new Promise((res) => setTimeout(res, (Number(r.body?.retry_after ?? 10) + 1) * 1000));
      }
    };
    const before = await submit("Nothing changed yet.");
    const shell = await runClient("ssh", [...clientOptions(player.key), "-p", String(server.sshPort), `${challenge.id}@${HOST}`, "bash -s"], {
      input: script,
      timeoutMs: 180_000,
    });
    const after = await submit(answer(shell.stdout));
    return { before: before.body, shell, after: after.body, afterStatus: after.status, beforeStatus: before.status };
  } finally {
    await call("POST", `/challenges/${challenge.id}/session/terminate`, {});
  }
}

/** Proves `challenge`: yields each step as it is done (ok or not). */
export async function* prove(server: Server, pool: PlayerPool, challenge: Challenge, opts: { fakes?: boolean } = {}): AsyncGenerator<ProofStep> {
  const main = await attempt(server, pool, challenge, challenge.solution.script, referenceAnswer);
  yield {
    step: "the check refuses the fresh deployment",
    ok: main.beforeStatus === 200 && main.before.is_correct === false,
    detail: main.before.feedback ?? JSON.stringify(main.before),
  };
  yield {
    step: "solution.sh runs through the SSH gateway",
    ok: main.shell.code === 0,
    detail: `exit ${main.shell.code}${main.shell.code ? `: ${main.shell.stderr.slice(-400)}` : ""}`,
  };
  yield {
    step: "the check accepts the fixed deployment",
    ok: main.afterStatus === 200 && main.after.is_correct === true,
    detail: main.after.feedback ?? JSON.stringify(main.after),
  };
  if (opts.fakes === false) return;
  for (const fake of challenge.fakes) {
    const faked = await attempt(server, pool, challenge, fake.script, () => "Fixed it.");
    yield {
      step: `fake ${fake.name} is refused`,
      ok: faked.afterStatus === 200 && faked.after.is_correct === false,
      detail: faked.after.feedback ?? JSON.stringify(faked.after),
    };
  }
}
