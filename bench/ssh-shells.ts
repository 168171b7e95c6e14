// 100 concurrent SSH shells through the gateway, with the real OpenSSH client: what each shell
// costs the server process (the gateway runs in it, with the API and the worker, both idle
// here), and what the gateway adds to a round trip compared with the engine alone.
//
//   npm run bench:ssh -- [shells=100] [challenge=nginx-broken-config]
//
// - Memory: the process's RSS with the shells open and idle, minus before, per shell.
// - CPU: the process's CPU time while every shell runs a command once a second for 10 s, per
//   shell and command; and while they sit idle.
// - Round trips, 50 each, measured with the shells open:
//     command: a new exec channel on an open SSH connection (ssh2 client) running `echo`, to its
//              close, versus a plain engine exec of the same `bash -c echo` to its end;
//     keystroke: a line typed in an open TTY shell to its output, through the gateway versus in
//              a TTY exec attached straight to the engine.
// The gateway allows 8 connections per owner and 32 per address: shells are spread over enough
// players (one deployment each) and over loopback source addresses 127.0.0.2-127.0.0.9.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { Client } from "ssh2";
import { clientOptions } from "../tests/gateway/support.ts";
import { waitForStatus } from "../tests/support/server.ts";
import { HOST, challenges, dataDir, mib, ms, pct, server, sleep, summary } from "./runtime-support.ts";

const shells = Number(process.argv[2] ?? 100);
const challenge = process.argv[3] ?? "nginx-broken-config";
const PER_PLAYER = 7; // the 8th connection of the first player is the ssh2 client below
const ANSI = /\x1b\[[0-9;?]*[a-zA-Z]/g;

const dir = dataDir();
const content = challenges([challenge]);
const s = await server(dir, { CHALLENGES_DIR: content });
const players: Awaited<ReturnType<typeof s.player>>[] = [];
const clients: ChildProcess[] = [];

/** An open interactive shell: type a line, get the time until `marker` comes back. */
function shellOf(write: (line: string) => void, onData: (fn: (text: string) => void) => void) {
  let out = "";
  onData((t) => (out += t.replace(ANSI, "").replace(/\r/g, "")));
  return {
    async prompt() {
      const t0 = performance.now();
      while (!/[#$] $/.test(out.trimEnd() + " ")) {
        if (performance.now() - t0 > 30_000) throw new Error(`no prompt: ${JSON.stringify(out.slice(-200))}`);
        await sleep(10);
      }
    },
    /** `echo $((n))`: the number appears only in the output, not in the echoed input. */
    async roundTrip(n: number) {
      out = "";
      const t0 = performance.now();
      write(`echo $((${n}+1))\n`);
      while (!out.includes(`\n${n + 1}`)) {
        if (performance.now() - t0 > 10_000) throw new Error(`no answer to ${n}: ${JSON.stringify(out.slice(-300))}`);
        await new Promise((r) => setImmediate(r));
      }
      return performance.now() - t0;
    },
  };
}

function openShell(i: number, p: (typeof players)[number]) {
  const child = spawn("ssh", ["-tt", "-b", `127.0.0.${2 + (i % 8)}`, ...clientOptions(p.key), "-p", String(s.sshPort), `${challenge}@${HOST}`], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  clients.push(child);
  const sh = shellOf(
    (l) => child.stdin!.write(l),
    (fn) => child.stdout!.on("data", (c) => fn(String(c))),
  );
  return { child, ...sh };
}

try {
  // Players and their deployments, three starts at a time.
  const needed = Math.ceil(shells / PER_PLAYER);
  for (let i = 0; i < needed; i++) players.push(await s.player());
  for (let i = 0; i < needed; i += 3) {
    await Promise.all(
      players.slice(i, i + 3).map(async (p) => {
        const r = await s.api.call("POST", `/challenges/${challenge}/session/start`, { token: p.token });
        if (r.status !== 201) throw new Error(`start: ${r.status} ${JSON.stringify(r.body)}`);
        await waitForStatus(s.api, p.token, challenge, (st) => st === "ready");
      }),
    );
  }
  const first = await s.platform.deployments.activeDeployment(await userId(players[0]!.username));
  const containerId = (await s.platform.deployments.row(first.active_session!.deployment_id))!.container_id!;

  global.gc?.();
  await sleep(1000);
  const before = process.memoryUsage().rss;

  // The shells, a few connecting at a time (8 unauthenticated per address at most).
  const open: ReturnType<typeof openShell>[] = [];
  const tOpen = performance.now();
  for (let i = 0; i < shells; i += 8) {
    const batch = Array.from({ length: Math.min(8, shells - i) }, (_, k) => openShell(i + k, players[Math.floor((i + k) / PER_PLAYER)]!));
    await Promise.all(batch.map((b) => b.prompt()));
    open.push(...batch);
  }
  const openedIn = performance.now() - tOpen;
  await sleep(3000);
  global.gc?.();
  const withShells = process.memoryUsage().rss;

  // CPU: idle for 10 s, then every shell runs a command once a second for 10 s.
  const idle0 = process.cpuUsage();
  await sleep(10_000);
  const idleCpu = process.cpuUsage(idle0);
  const busy0 = process.cpuUsage();
  let commands = 0;
  for (let second = 0; second < 10; second++) {
    const t = performance.now();
    await Promise.all(open.map((sh, i) => sh.roundTrip(second * 1000 + i).then(() => commands++)));
    await sleep(Math.max(0, 1000 - (performance.now() - t)));
  }
  const busyCpu = process.cpuUsage(busy0);

  // Round trips: a command on an open SSH connection vs a plain engine exec.
  const ssh2 = new Client();
  await new Promise<void>((resolve, reject) => {
    ssh2.on("ready", () => resolve()).on("error", reject);
    ssh2.connect({ host: HOST, port: s.sshPort, username: challenge, privateKey: readFileSync(players[0]!.key.path) });
  });
  const viaGateway: number[] = [];
  const viaEngine: number[] = [];
  const runtime = s.platform.runtime!;
  for (let i = 0; i < 50; i++) {
    let t0 = performance.now();
    await new Promise<void>((resolve, reject) =>
      ssh2.exec("echo hi", (err, stream) => {
        if (err) return reject(err);
        stream.on("data", () => {}).on("close", () => resolve());
        stream.stderr.on("data", () => {});
      }),
    );
    viaGateway.push(performance.now() - t0);
    t0 = performance.now();
    const ex = await runtime.exec(containerId, { command: ["/bin/bash", "-c", "echo hi"], user: "root" });
    ex.stdout.resume();
    ex.stderr.resume();
    await ex.wait();
    viaEngine.push(performance.now() - t0);
  }
  ssh2.end();

  // Keystroke round trips: an open gateway shell vs a TTY exec attached to the engine.
  const gatewayKeys: number[] = [];
  for (let i = 0; i < 50; i++) gatewayKeys.push(await open[0]!.roundTrip(100_000 + i));
  const direct = await runtime.exec(containerId, { command: ["/bin/bash", "-l"], tty: true, stdin: true, user: "root", cols: 80, rows: 24 });
  const directShell = shellOf(
    (l) => direct.stdin!.write(l),
    (fn) => direct.stdout.on("data", (c) => fn(String(c))),
  );
  await directShell.prompt();
  const engineKeys: number[] = [];
  for (let i = 0; i < 50; i++) engineKeys.push(await directShell.roundTrip(200_000 + i));
  direct.stdin!.end("exit\n");

  const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
  console.log(`\n${shells} SSH shells through the gateway (${challenge}, ${players.length} deployments, 2 cores, ${new Date().toISOString().slice(0, 10)})`);
  console.log(`  opened in ${ms(openedIn)} (${ms(openedIn / shells)} a shell, 8 at a time)`);
  console.log(`  server RSS: ${mib(before)} before, ${mib(withShells)} with the shells: ${mib((withShells - before) / shells)} per shell`);
  console.log(
    `  server CPU, shells idle: ${(cpuMs(idleCpu) / 10 / shells).toFixed(3)} ms a second per shell (${((cpuMs(idleCpu) / 10_000) * 100).toFixed(1)} % of a core in all)`,
  );
  console.log(
    `  server CPU, every shell a command a second: ${(cpuMs(busyCpu) / commands).toFixed(2)} ms per command, ${((cpuMs(busyCpu) / 10_000) * 100).toFixed(0)} % of a core in all (${commands} commands)`,
  );
  console.log(`  command (new channel on an open connection): gateway ${summary(viaGateway)}`);
  console.log(`                                    plain engine exec ${summary(viaEngine)}`);
  console.log(
    `    the gateway adds ${ms(pct(viaGateway, 50) - pct(viaEngine, 50))} at p50, ${ms(pct(viaGateway, 95) - pct(viaEngine, 95))} at p95 (×${(pct(viaGateway, 50) / pct(viaEngine, 50)).toFixed(2)}); goal < 50 ms: ${pct(viaGateway, 50) - pct(viaEngine, 50) < 50 ? "met" : "NOT met"}`,
  );
  console.log(`  keystroke in an open shell: gateway ${summary(gatewayKeys)}`);
  console.log(`                               engine ${summary(engineKeys)}`);
  console.log(`    the gateway adds ${ms(pct(gatewayKeys, 50) - pct(engineKeys, 50))} at p50`);
} finally {
  for (const c of clients) c.kill("SIGKILL");
  for (const p of players) await s.api.call("POST", `/challenges/${challenge}/session/terminate`, { token: p.token }).catch(() => {});
  await s.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(content, { recursive: true, force: true });
}
process.exit(0);

async function userId(username: string) {
  return (await s.platform.db.selectFrom("users").select("id").where("username", "=", username).executeTakeFirstOrThrow()).id;
}
