// Start latency as a user lives it: POST start → the first shell prompt over the real OpenSSH
// client, on the real server (API, live channel, gateway, worker) and the local dockerd.
//   cold           no warm pool: the deployment is made and set up after the start
//   warm           the challenge's pool filled (challenge.yaml `pool:`): the start claims one
//   after restart  the first start on a server just started again on the same DATA_DIR, with the
//                  boot caches (skeletons on disk, filled at boot) and, for comparison, without
//                  them (cache folder removed, PREPARE_AT_BOOT=false: what every restart cost
//                  before). "Restart": a new server (platform, engine client, in-memory caches) in
//                  this process; the engine's own caches stay warm, as they do when only faultline
//                  restarts.
//   after restart, warm pool   the same with a pool of 1: the new server adopts the pooled
//                  deployment the old one left running and the start claims it.
//   after a deploy the first start on a server just started with the whole library and no boot
//                  caches yet (a new release builds new images, so their ids are new): the
//                  worker fills every image's caches in the background while the start runs.
//
//   npm run bench:start -- [runs=20] [challenge=nginx-broken-config] [restarts=runs]
//
// Needs dockerd and the images (scripts/test.sh, or: source scripts/lib.sh && docker_ensure;
// npm run images). Prints p50/p95 of each case and the ratios to the cold start.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { CHALLENGES_DIR } from "#server/library/challenges.ts";
import { openLive } from "../tests/support/server.ts";
import { challenges, dataDir, firstPrompt, pct, server, sleep, summary } from "./runtime-support.ts";

const runs = Number(process.argv[2] ?? 20);
const challenge = process.argv[3] ?? "nginx-broken-config";
const restarts = Number(process.argv[4] ?? runs);
/** CASES=warm,cold runs only those (names: cold, warm, restart, restart-pool, deploy); default all. */
const only = process.env.CASES?.split(",");
const want = (name: string) => !only || only.includes(name);

type Server = Awaited<ReturnType<typeof server>>;
type Player = Awaited<ReturnType<Server["player"]>>;

/** One start → prompt; terminates the deployment afterwards. */
async function once(s: Server, p: Player) {
  const t0 = performance.now();
  const r = await s.api.call("POST", `/challenges/${challenge}/session/start`, { token: p.token });
  if (r.status !== 201) throw new Error(`start: ${r.status} ${JSON.stringify(r.body)}`);
  const tStarted = performance.now() - t0;
  if (r.body.deployment_status.status !== "ready") {
    const live = openLive(s.api.base, r.body.deployment_status.deployment_id, p.token);
    const m = await live.until((x) => x.status === "ready" || x.type === "deployment_error");
    live.ws.close();
    if (m.status !== "ready") throw new Error(`deployment failed: ${JSON.stringify(m)}`);
  }
  await firstPrompt(s.sshPort, p.key, challenge);
  const total = performance.now() - t0;
  await s.api.call("POST", `/challenges/${challenge}/session/terminate`, { token: p.token });
  return { total, answer: tStarted, pooled: r.body.deployment_status.status === "ready" };
}

async function series(name: string, s: Server, before: () => Promise<void> = async () => {}) {
  const totals: number[] = [];
  let p = await s.player({ plan: "pro" });
  let pooled = 0;
  for (let i = 0; i < runs; i++) {
    // Starts are rate-limited per user (20 per 10 minutes): a fresh player every 15 runs.
    if (i > 0 && i % 15 === 0) p = await s.player({ plan: "pro" });
    await before();
    const r = await once(s, p);
    totals.push(r.total);
    if (r.pooled) pooled++;
    process.stdout.write(`${name} ${i + 1}/${runs}: ${Math.round(r.total)} ms${r.pooled ? " (pool)" : ""}\n`);
  }
  return { totals, pooled };
}

const results: Record<string, number[]> = {};

// Cold: no pool.
if (want("cold")) {
  const dir = dataDir();
  const content = challenges([challenge]);
  const s = await server(dir, { CHALLENGES_DIR: content });
  try {
    results.cold = (await series("cold", s)).totals;
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(content, { recursive: true, force: true });
  }
}

// Warm: a pool of 2; each start waits until the pool is full again (starts further apart than a
// refill, about 2 s), as a pool sized for its traffic is.
if (want("warm")) {
  const dir = dataDir();
  const content = challenges([challenge], { [challenge]: 2 });
  const s = await server(dir, { CHALLENGES_DIR: content });
  const full = async () => {
    for (;;) {
      const size = (await s.platform.deployments.pool.sizes()).find((x) => x.challenge_id === challenge);
      if (size && size.ready >= size.target) return;
      await sleep(100);
    }
  };
  try {
    const { totals, pooled } = await series("warm", s, full);
    results.warm = totals;
    if (pooled !== runs) console.log(`warning: ${runs - pooled} warm starts did not come from the pool`);
  } finally {
    await s.platform.deployments.pool.drain();
    await s.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(content, { recursive: true, force: true });
  }
}

// The first start after a restart, with and without the boot caches.
for (const [name, withCaches] of [
  ["after restart, no boot caches", false],
  ["after restart", true],
] as const) {
  if (!want("restart")) break;
  const dir = dataDir();
  const content = challenges([challenge]);
  const totals: number[] = [];
  try {
    for (let i = 0; i < restarts; i++) {
      if (!withCaches) rmSync(join(dir, "cache"), { recursive: true, force: true });
      const s = await server(dir, { CHALLENGES_DIR: content, PREPARE_AT_BOOT: String(withCaches) });
      try {
        const p = await s.player({ plan: "pro" });
        // What the worker fills at boot (from disk after the first boot) is done by the time a
        // person has signed in; a start in the same millisecond would wait for it.
        await sleep(300);
        totals.push((await once(s, p)).total);
        process.stdout.write(`${name} ${i + 1}/${restarts}: ${Math.round(totals.at(-1)!)} ms\n`);
      } finally {
        await s.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(content, { recursive: true, force: true });
  }
  results[name] = totals;
}

// The first start right after a deploy of faultline: the whole library, every image's caches
// still to fill (the cache folder removed before each boot), the start sent as soon as a player
// has signed in.
if (want("deploy")) {
  const dir = dataDir();
  const library = readdirSync(CHALLENGES_DIR).filter((id) => existsSync(join(CHALLENGES_DIR, id, "challenge.yaml")));
  const content = challenges(library);
  const totals: number[] = [];
  try {
    for (let i = 0; i < restarts; i++) {
      rmSync(join(dir, "cache"), { recursive: true, force: true });
      const s = await server(dir, { CHALLENGES_DIR: content, PREPARE_AT_BOOT: "true" });
      try {
        const p = await s.player({ plan: "pro" });
        totals.push((await once(s, p)).total);
        process.stdout.write(`after a deploy (${library.length} images filling) ${i + 1}/${restarts}: ${Math.round(totals.at(-1)!)} ms\n`);
      } finally {
        await s.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(content, { recursive: true, force: true });
  }
  results["after a deploy"] = totals;
}

// The first start after a restart when the challenge has a pool: the new server adopts the
// pooled deployments the old one left running (reconciliation keeps them), so it claims one.
if (want("restart-pool")) {
  const dir = dataDir();
  const content = challenges([challenge], { [challenge]: 1 });
  const totals: number[] = [];
  const poolFull = async (s: Server) => {
    for (;;) {
      const size = (await s.platform.deployments.pool.sizes()).find((x) => x.challenge_id === challenge);
      if (size && size.ready >= size.target) return;
      await sleep(100);
    }
  };
  try {
    // A first boot fills the pool.
    const first = await server(dir, { CHALLENGES_DIR: content });
    await poolFull(first);
    await first.close();
    for (let i = 0; i < restarts; i++) {
      const s = await server(dir, { CHALLENGES_DIR: content });
      try {
        const p = await s.player({ plan: "pro" });
        const r = await once(s, p);
        totals.push(r.total);
        process.stdout.write(
          `after restart, warm pool ${i + 1}/${restarts}: ${Math.round(r.total)} ms${r.pooled ? " (pool)" : " (cold: the pool was not filled yet)"}\n`,
        );
        // Full again before the next restart.
        await poolFull(s);
      } finally {
        if (i === restarts - 1) await s.platform.deployments.pool.drain();
        await s.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(content, { recursive: true, force: true });
  }
  results["after restart, warm pool"] = totals;
}

console.log(`\n${challenge}: start → first SSH prompt (2 cores, local dockerd, ${new Date().toISOString().slice(0, 10)})`);
for (const [name, xs] of Object.entries(results)) {
  console.log(`  ${name.padEnd(32)} ${summary(xs)}${results.cold ? `   p50 ×${(pct(xs, 50) / pct(results.cold, 50)).toFixed(2)} of cold` : ""}`);
}
if (results.warm) console.log(`  goal: warm p50 < 300 ms: ${pct(results.warm, 50) < 300 ? "met" : "NOT met"}`);
const restarted = results["after restart, warm pool"];
if (restarted) console.log(`  goal: first start after a restart < 1 s: ${pct(restarted, 95) < 1000 ? "met" : "NOT met"} with a pool (p95)`);
if (results["after a deploy"])
  console.log(`  goal: first start after a deploy, caches filling < 1 s: ${pct(results["after a deploy"], 50) < 1000 ? "met" : "NOT met"} (p50)`);
if (results["after restart"]) console.log(`  without a pool, first start after a restart: p50 ${pct(results["after restart"], 50) < 1000 ? "<" : "≥"} 1 s`);
console.log(
  `  load average during the run: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(", ")} (2 cores)`,
);
process.exit(0);
