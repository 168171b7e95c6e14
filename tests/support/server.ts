// A real faultline server for runtime tests and benchmarks: server.ts's startServer (API, live
// channel, SSH gateway, worker) on free loopback ports, its own DATA_DIR and SQLite file, the
// local dockerd. Players are made through the API as a person would: register, verify through
// the mailed link (outbox), sign in, register an SSH key made by ssh-keygen.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { startServer } from "../../server.ts";
import { loadConfig } from "#server/config.ts";
import { makeKey, type ClientKey } from "../gateway/support.ts";
import { parseEml, verificationToken } from "./platform.ts";
import { putSshKey } from "./ssh-keys.ts";

export const HOST = "127.0.0.1";

export interface Player {
  username: string;
  token: string;
  key: ClientKey;
}

export interface Api {
  base: string;
  call(method: string, path: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any }>;
}

export function apiAt(base: string): Api {
  return {
    base,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (opts.body !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(`${base}/api/v1${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: left as text
      }
      return { status: res.status, body };
    },
  };
}

let seq = 0;

/** Registers, verifies (through the outbox mail), signs in and registers a fresh SSH key. */
export async function makePlayer(api: Api, dataDir: string, opts: { verify?: boolean; key?: boolean } = {}): Promise<Player> {
  seq += 1;
  const username = `p${process.pid.toString(36)}${seq}${Math.random().toString(36).slice(2, 6)}`;
  const email = `${username}@example.test`;
  const password = `pw-${username}-long enough`;
  const reg = await api.call("POST", "/auth/register", { body: { username, email, password } });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
  if (opts.verify !== false) {
    // Mailed after the answer (server/core/accounts/mail-later.ts): read once it is written.
    const outbox = join(dataDir, "outbox");
    const find = () => {
      try {
        return readdirSync(outbox)
          .map((f) => parseEml(readFileSync(join(outbox, f), "utf8"), f))
          .find((m) => m.to.includes(email));
      } catch {
        return undefined;
      }
    };
    let mail = find();
    for (const until = Date.now() + 10_000; !mail && Date.now() < until; mail = find()) await new Promise((r) => setTimeout(r, 50));
    if (!mail) throw new Error(`no mail for ${email}`);
    const v = await api.call("POST", "/auth/verify-email", { body: { token: verificationToken(mail) } });
    if (v.status !== 200) throw new Error(`verify: ${v.status} ${JSON.stringify(v.body)}`);
  }
  const login = await api.call("POST", "/auth/login", { body: { username_or_email: username, password } });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  const key = await makeKey(dataDir, `key-${username}`);
  if (opts.key !== false) {
    const put = await putSshKey((method, path, body) => api.call(method, path, { token: login.body.access_token, body }), key.path);
    if (put.status !== 200) throw new Error(`ssh key: ${put.status} ${JSON.stringify(put.body)}`);
  }
  return { username, token: login.body.access_token, key };
}

export function serverEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: "test",
    HOST,
    PORT: "0",
    SSH_PORT: "0",
    PUBLIC_URL: "http://127.0.0.1:3999",
    SSH_HOST: HOST,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "warn",
    // Every test server has a fresh DATA_DIR: filling the runtime's disk caches for every image at
    // boot would only load the engine (servers spawned as production would do it otherwise).
    PREPARE_AT_BOOT: "false",
    ...extra,
  };
}

/** startServer in this process (API-only: no web build needed). */
export async function startTestServer(extra: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "faultline-rt-"));
  const running = await startServer(loadConfig(serverEnv(dataDir, extra)), { web: false });
  const api = apiAt(`http://${HOST}:${running.port}`);
  return {
    ...running,
    dataDir,
    api,
    sshPort: running.sshPort!,
    /** A fresh player; `plan: "pro"` for every level and several deployments at once (players
     *  start on the free plan, server/core/plans.ts). */
    async player(opts?: { verify?: boolean; key?: boolean; plan?: "free" | "pro" }) {
      const p = await makePlayer(api, dataDir, opts);
      if (opts?.plan === "pro") {
        const { id } = await running.platform.db.selectFrom("users").select("id").where("username", "=", p.username).executeTakeFirstOrThrow();
        await running.platform.plans.setPlan(id, "pro", null);
      }
      return p;
    },
    async stop() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls GET /challenges/{id}/active-session until `done` says so. */
export async function waitForStatus(api: Api, token: string, challenge: string, done: (status: string) => boolean, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await api.call("GET", `/challenges/${challenge}/active-session`, { token });
    if (r.status === 200 && done(r.body.status)) return r.body;
    if (Date.now() > end) throw new Error(`deployment of ${challenge} still ${JSON.stringify(r.body)} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Opens the live channel as a program does (bearer token in a header; browsers use their
 *  sign-in cookie) and records every message; `until` resolves on the first match. */
export function openLive(base: string, deploymentId: string, token: string | null) {
  const url = `${base.replace(/^http/, "ws")}/ws/deployments/${deploymentId}`;
  const ws = new WebSocket(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const messages: any[] = [];
  const waiters: { match: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  ws.on("message", (data) => {
    const m = JSON.parse(String(data));
    messages.push(m);
    for (const w of [...waiters])
      if (w.match(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
  return {
    ws,
    messages,
    closed,
    until(match: (m: any) => boolean, timeoutMs = 60_000): Promise<any> {
      const seen = messages.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no matching live message in ${timeoutMs} ms; got ${JSON.stringify(messages)}`)), timeoutMs);
        waiters.push({ match, resolve: (m) => (clearTimeout(t), resolve(m)) });
      });
    },
  };
}

/** server.ts as its own process (for kill -9): resolves once it listens; the ports are read
 *  from its log. Needs the web build (scripts/test.sh builds it first). */
export function spawnServer(dataDir: string, extra: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: { ...process.env, ...serverEnv(dataDir, { LOG_LEVEL: "info", NODE_ENV: "production", ...extra }) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const ready = new Promise<{ port: number; sshPort: number }>((resolve, reject) => {
    const onData = (c: Buffer) => {
      log += c;
      const http = /faultline listening on http:\/\/[^:]+:(\d+)/.exec(log);
      const ssh = /gateway listening on [^:]+:(\d+)/.exec(log);
      if (http && ssh) resolve({ port: Number(http[1]), sshPort: Number(ssh[1]) });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`server exited (${code}) before listening:\n${log}`)));
  });
  return { child, ready, log: () => log };
}
