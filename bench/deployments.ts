// Start latency of deployments, measured as a user lives it: POST start → the live channel's
// deployment_ready, and POST start → the first shell prompt over the real OpenSSH client.
// Runs the real server (API, live channel, gateway, worker) against the local dockerd.
//
//   npx tsx bench/deployments.ts [runs=20] [challenge=nginx-broken-config]
//
// Needs dockerd and the images (scripts/test.sh or: source scripts/lib.sh && docker_ensure;
// npm run images). Prints p50/p95/min/max of each figure and the share setup.sh takes.
import { spawn } from "node:child_process";
import { clientOptions } from "../tests/gateway/support.ts";
import { HOST, openLive, startTestServer } from "../tests/support/server.ts";

const runs = Number(process.argv[2] ?? 20);
const challenge = process.argv[3] ?? "nginx-broken-config";

function firstPrompt(port: number, key: Parameters<typeof clientOptions>[0], user: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("ssh", ["-tt", ...clientOptions(key), "-p", String(port), `${user}@${HOST}`], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no prompt within 20 s: ${JSON.stringify(out)}`));
    }, 20_000);
    child.stdout.on("data", (c) => {
      out += c;
      if (/[#$] $/.test(out.replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, "").trimEnd() + " ")) {
        clearTimeout(timer);
        resolve(performance.now() - t0);
        child.kill("SIGKILL");
      }
    });
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const fmt = (xs: number[]) =>
  `p50 ${Math.round(pct(xs, 50))} ms, p95 ${Math.round(pct(xs, 95))} ms, min ${Math.round(Math.min(...xs))} ms, max ${Math.round(Math.max(...xs))} ms`;

const server = await startTestServer({ LOG_LEVEL: "error" });
try {
  let player = await server.player();
  const ready: number[] = [];
  const prompt: number[] = [];
  const connect: number[] = [];
  for (let i = 0; i < runs; i++) {
    // A fresh player every 15 runs: starts are rate-limited per user (20 per 10 minutes).
    if (i > 0 && i % 15 === 0) player = await server.player();
    const t0 = performance.now();
    const r = await server.api.call("POST", `/challenges/${challenge}/session/start`, { token: player.token });
    if (r.status !== 201) throw new Error(`start: ${r.status} ${JSON.stringify(r.body)}`);
    const live = openLive(server.api.base, r.body.deployment_status.deployment_id, player.token);
    const m = await live.until((x) => x.type === "deployment_ready" || x.type === "deployment_error");
    if (m.type !== "deployment_ready") throw new Error(`deployment failed: ${JSON.stringify(m)}`);
    const tReady = performance.now() - t0;
    const tConnect = await firstPrompt(server.sshPort, player.key, challenge);
    ready.push(tReady);
    connect.push(tConnect);
    prompt.push(performance.now() - t0);
    live.ws.close();
    await server.api.call("POST", `/challenges/${challenge}/session/terminate`, { token: player.token });
    process.stdout.write(`run ${i + 1}/${runs}: ready ${Math.round(tReady)} ms, prompt ${Math.round(tReady + tConnect)} ms\n`);
  }
  console.log(`\n${challenge}, ${runs} runs (2 cores, local dockerd):`);
  console.log(`  start → ready (live channel):   ${fmt(ready)}`);
  console.log(`  start → first SSH prompt:       ${fmt(prompt)}`);
  console.log(`  ssh connect → prompt (ready):   ${fmt(connect)}`);
  console.log(`  prompt / ready (p50 ratio):     ${(pct(prompt, 50) / pct(ready, 50)).toFixed(2)}`);
} finally {
  await server.stop();
}
