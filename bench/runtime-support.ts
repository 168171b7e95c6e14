// What the runtime benches share (start-latency.ts, ssh-shells.ts, idle-memory.ts): percentiles,
// a challenges folder with chosen pool sizes, a server on a DATA_DIR that survives a restart, and
// the time to the first shell prompt with the real OpenSSH client.
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../server.ts";
import { loadConfig } from "#server/config.ts";
import { clientOptions, type ClientKey } from "../tests/gateway/support.ts";
import { challengesFixture } from "../tests/support/platform.ts";
import { HOST, apiAt, makePlayer, serverEnv } from "../tests/support/server.ts";

export { HOST };

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
export const ms = (x: number) => `${Math.round(x)} ms`;
export const summary = (xs: number[]) =>
  `p50 ${ms(pct(xs, 50))}, p95 ${ms(pct(xs, 95))}, min ${ms(Math.min(...xs))}, max ${ms(Math.max(...xs))} (n=${xs.length})`;
export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** A copy of some challenges; `pools` adds `pool: <n>` to their challenge.yaml. */
export function challenges(ids: string[], pools: Record<string, number> = {}) {
  const dir = challengesFixture(ids);
  for (const [id, n] of Object.entries(pools)) appendFileSync(join(dir, id, "challenge.yaml"), `\npool: ${n}\n`);
  return dir;
}

/** A server (API, gateway, worker) in this process on `dataDir`; start it again on the same
 *  directory for a restart (same database, same disk caches, fresh process state). */
export async function server(dataDir: string, env: Record<string, string>) {
  const running = await startServer(loadConfig(serverEnv(dataDir, { LOG_LEVEL: "error", TRUST_PROXY: "1", ...env })), { web: false });
  const api = apiAt(`http://${HOST}:${running.port}`);
  return { ...running, api, sshPort: running.sshPort!, player: (opts?: { plan?: "pro" }) => player(running, api, dataDir, opts) };
}

let seq = 0;
async function player(running: Awaited<ReturnType<typeof startServer>>, api: ReturnType<typeof apiAt>, dataDir: string, opts?: { plan?: "pro" }) {
  // Registrations are rate-limited per address: each bench player comes from its own (the
  // server trusts one proxy hop here, TRUST_PROXY=1).
  const address = `10.${(seq >> 8) & 255}.${seq & 255}.${++seq % 250}`;
  const fromAddress: typeof api = {
    base: api.base,
    call: (m, path, o = {}) => api.call(m, path, { ...o, headers: { "x-forwarded-for": address, ...o.headers } }),
  };
  const p = await makePlayer(fromAddress, dataDir);
  if (opts?.plan === "pro") {
    const { id } = await running.platform.db.selectFrom("users").select("id").where("username", "=", p.username).executeTakeFirstOrThrow();
    await running.platform.plans.setPlan(id, "pro", null);
  }
  return p;
}

export const dataDir = () => mkdtempSync(join(tmpdir(), "faultline-bench-"));

/** ssh -tt until the shell's prompt shows; resolves with the time it took. */
export function firstPrompt(port: number, key: ClientKey, user: string): Promise<number> {
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
