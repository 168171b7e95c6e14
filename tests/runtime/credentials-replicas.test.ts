// What a sign-in or a credential let in ends everywhere when it ends, across
// two replicas on one PostgreSQL: two server.ts processes (every role, the web build, one
// SESSION_SECRET), the local dockerd, a real deployment. The browser terminal and the SSH
// connection are open on replica B; the person signs out, changes their password or replaces their
// key through replica A; B closes what the old sign-in or credential let in, saying why. And the
// terminal's control messages come out of the input's budget: a flood of them leaves
// none for keystrokes, which the page is told.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ssh2 from "ssh2";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TERMINAL_CLOSE, TERMINAL_TEXT } from "#shared/contract/terminal.ts";
import { MESSAGES } from "#server/gateway/messages.ts";
import { createDatabase, startPostgres, type TestPostgres } from "../support/postgres.ts";
import { makeSshKey, putSshKey } from "../support/ssh-keys.ts";
import { apiAt, HOST, makePlayer, serverEnv, spawnServer, waitForStatus, type Api, type Player } from "../support/server.ts";

const CHALLENGE = "nginx-broken-config";
const SECRET = "credentials-replicas-session-secret-0123456789";
const ORIGIN = new URL(serverEnv("").PUBLIC_URL!).origin;

interface Replica {
  dataDir: string;
  base: string;
  api: Api;
  sshPort: number;
  proc: ReturnType<typeof spawnServer>;
}

let postgres: TestPostgres;
let databaseUrl: string;
const replicas: Replica[] = [];
let a: Replica;
let b: Replica;
let player: Player;
let password: string;
let deploymentId: string;

async function startReplica(name: string): Promise<Replica> {
  const dataDir = mkdtempSync(join(tmpdir(), `faultline-cred-${name}-`));
  const proc = spawnServer(dataDir, { DATABASE_URL: databaseUrl, SESSION_SECRET: SECRET });
  const { port, sshPort } = await proc.ready;
  const base = `http://${HOST}:${port}`;
  const r = { dataDir, base, api: apiAt(base), sshPort, proc };
  replicas.push(r);
  return r;
}

/** Signs in through replica A's login form, as a browser does: the session cookie. */
async function signInOnA(): Promise<string> {
  const res = await fetch(`${a.base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: a.base },
    body: new URLSearchParams({ username: player.username, password, redirectTo: "/" }).toString(),
  });
  expect([302, 303]).toContain(res.status);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  expect(cookie).toMatch(/faultline=/);
  return cookie;
}

/** The browser terminal on replica B: its messages, and how it closed. */
async function terminalOnB(cookie: string) {
  const ws = new WebSocket(`${b.base.replace("http", "ws")}/ws/terminal/${deploymentId}?cols=100&rows=30`, { headers: { cookie, origin: ORIGIN } });
  const messages: { type: string; message?: string }[] = [];
  let output = "";
  ws.on("message", (data, binary) => {
    if (binary) output += data.toString();
    else messages.push(JSON.parse(String(data)));
  });
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on("close", (code, reason) => r({ code, reason: String(reason) })));
  await until(() => messages.some((m) => m.type === "attached") && output.includes("#"), 30_000, "the terminal's prompt");
  return { ws, messages, closed, output: () => output };
}

async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what)), ms))]);

/** A shell over SSH into the deployment through replica B's gateway, and what it was told. */
function sshOnB(key = player.key.path) {
  return new Promise<{ closed: Promise<void>; said: () => string; end: () => void }>((resolve, reject) => {
    const client = new ssh2.Client();
    client.on("error", reject);
    client.on("ready", () =>
      client.shell((err, stream) => {
        if (err) return reject(err);
        let said = "";
        stream.on("data", (d: Buffer) => (said += d));
        stream.stderr.on("data", (d: Buffer) => (said += d));
        resolve({ closed: new Promise((r) => client.once("close", () => r())), said: () => said, end: () => client.end() });
      }),
    );
    client.connect({ host: HOST, port: b.sshPort, username: CHALLENGE, privateKey: readFileSync(key), readyTimeout: 20_000 });
  });
}

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await createDatabase(postgres.url);
  // One after the other: the first migrates the database.
  a = await startReplica("a");
  b = await startReplica("b");
  player = await makePlayer(a.api, a.dataDir);
  password = `pw-${player.username}-long enough`;
  const start = await a.api.call("POST", `/challenges/${CHALLENGE}/session/start`, { token: player.token, body: {} });
  expect(start.status, JSON.stringify(start.body)).toBe(201);
  deploymentId = (await waitForStatus(a.api, player.token, CHALLENGE, (s) => s === "ready", 120_000)).deployment_id;
}, 240_000);

afterAll(async () => {
  if (a && player) await a.api.call("POST", `/challenges/${CHALLENGE}/session/terminate`, { token: player.token, body: {} }).catch(() => {});
  for (const r of replicas) if (r.proc.child.exitCode === null) r.proc.child.kill("SIGTERM");
  await Promise.all(replicas.map((r) => (r.proc.child.exitCode !== null ? null : new Promise((res) => r.proc.child.once("exit", res)))));
  await postgres?.stop();
  for (const r of replicas) rmSync(r.dataDir, { recursive: true, force: true });
});

describe("credentials and sign-ins end on every replica", () => {
  it("a flood of terminal control messages uses up the input's budget: a paste right after is dropped, and the page told", async () => {
    const term = await terminalOnB(await signInOnA());
    const resize = JSON.stringify({ type: "resize", cols: 100, rows: 30, pad: "p".repeat(150) });
    for (let i = 0; i < 5000; i++) term.ws.send(resize);
    // 16 KiB: half a second of the budget's refill, a sixteenth of its burst.
    term.ws.send(Buffer.from(`: ${"x".repeat(16 * 1024)}\r`), { binary: true });
    await until(() => term.messages.some((m) => m.type === "notice" && m.message === TERMINAL_TEXT.inputDropped), 10_000, "the input-dropped notice").catch(
      (e) => {
        throw new Error(`${(e as Error).message}: ${JSON.stringify(term.messages)}`);
      },
    );
    term.ws.close();
    await term.closed;
  }, 60_000);

  it("signing out on replica A closes the browser terminal open on replica B", async () => {
    const cookie = await signInOnA();
    const term = await terminalOnB(cookie);
    const out = await fetch(`${a.base}/logout`, { method: "POST", redirect: "manual", headers: { cookie, origin: a.base } });
    expect([302, 303]).toContain(out.status);
    const closed = await within(term.closed, 10_000, "the terminal on B outlived the sign-out on A");
    expect(closed).toEqual({ code: TERMINAL_CLOSE.unauthorized, reason: "Authentication required" });
  }, 60_000);

  it("a password change on replica A closes the SSH connection and the browser terminal open on replica B", async () => {
    const term = await terminalOnB(await signInOnA());
    const shell = await sshOnB();
    const next = `${password}+`;
    const changed = await a.api.call("PUT", "/users/me/password", { token: player.token, body: { current_password: password, new_password: next } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    password = next;
    player = { ...player, token: changed.body.access_token };
    await within(shell.closed, 10_000, "the SSH connection on B outlived the password change on A");
    expect(shell.said()).toContain(MESSAGES.credentialsChanged);
    expect((await within(term.closed, 10_000, "the terminal on B outlived the password change on A")).code).toBe(TERMINAL_CLOSE.unauthorized);
  }, 60_000);

  it("replacing the SSH key on replica A closes the SSH connection made with the old key on replica B", async () => {
    const shell = await sshOnB();
    const fresh = makeSshKey("replacement");
    const put = await putSshKey((method, path, body) => a.api.call(method, path, { token: player.token, body }), fresh.file, {
      extra: { current_password: password },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await within(shell.closed, 10_000, "the SSH connection on B outlived the key's replacement on A");
    expect(shell.said()).toContain(MESSAGES.credentialsChanged);
    // The new key gets in.
    const again = await sshOnB(fresh.file);
    expect(again.said()).not.toContain(MESSAGES.credentialsChanged);
    again.end();
  }, 60_000);
});
