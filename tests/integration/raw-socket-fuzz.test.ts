// Nothing a stranger sends takes faultline down (decision 015). The real
// server (server.ts with the web build, in a process of its own, as in production: every role,
// the SSH gateway and the browser terminal included, the engine at a closed loopback port) is
// sent, over raw sockets, odd request targets (`//[`, `http://[`, `/\[`, `%`, overlong, control
// characters, absolute form, `*`, CONNECT), each with and without `Connection: Upgrade`, odd
// headers, and upgrades to every path of the web and the API, with and without a session. After
// each: the process is alive, /healthz answers, and the probe's socket was answered or closed (none
// is left held). No error goes uncaught along the way.
// Over 350 lines: every hostile request target, header and upgrade against one real server, with
//  the helpers that prove it still answers.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METRICS_NEED_TOKEN } from "#server/metrics.ts";
import { unique } from "../support/platform.ts";

const HOST = "127.0.0.1";
const PUBLIC_URL = "http://127.0.0.1:3999";
const WS_HEADERS = "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";

let child: ChildProcess;
let dataDir: string;
let port: number;
let log = "";
let healthyStatus: number;
const session = { cookie: "", bearer: "", deploymentId: "" };

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, HOST, r));
  const p = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return p;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "faultline-rawfuzz-"));
  child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST,
      PORT: "0",
      SSH_PORT: "0",
      METRICS_PORT: "0",
      // Every role with an engine that never answers: the gateway and the browser terminal are
      // attached, and whatever reaches the engine fails at once.
      RUNTIME: "docker",
      DOCKER_HOST: `tcp://127.0.0.1:${await closedPort()}`,
      PREPARE_AT_BOOT: "false",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PUBLIC_URL,
      // Behind one proxy: X-Forwarded-Proto and -Host decide the URL the web builds.
      TRUST_PROXY: "1",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  port = await new Promise<number>((resolve, reject) => {
    const onData = (c: Buffer) => {
      log += c;
      const http = /faultline listening on http:\/\/[^:]+:(\d+)/.exec(log);
      if (http && /gateway listening/.test(log)) resolve(Number(http[1]));
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`server exited (${code}) before listening:\n${log}`)));
  });
  healthyStatus = (await fetch(`http://${HOST}:${port}/healthz`)).status;

  // A player with a web session (signed in through the form), a bearer token and a deployment
  // that is ready as far as the database knows (its container is on the unreachable engine).
  const username = unique("raw");
  const password = `pw-${username}-long enough`;
  const base = `http://${HOST}:${port}`;
  const reg = await fetch(`${base}/api/v1/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, email: `${username}@example.test`, password }),
  });
  expect(reg.status).toBe(201);
  const form = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ username, password, redirectTo: "/" }).toString(),
  });
  session.cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  expect(session.cookie).toMatch(/faultline=/);
  const login = (await (
    await fetch(`${base}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username_or_email: username, password }),
    })
  ).json()) as { access_token: string; user: { id: string } };
  session.bearer = login.access_token;
  session.deploymentId = randomUUID();
  const db = new Database(join(dataDir, "faultline.db"));
  const now = Math.floor(Date.now() / 1000);
  db.prepare(
    `INSERT INTO deployments (id, user_id, challenge_id, status, ssh_user, container_id, created_at, ready_at, expires_at, updated_at) VALUES (?, ?, 'nginx-broken-config', 'ready', 'nginx-broken-config', 'no-such-container', ?, ?, ?, ?)`,
  ).run(session.deploymentId, login.user.id, now, now, now + 1800, now);
  db.close();
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Outcome {
  /** The status line of the answer, when one came ("" for none). */
  status: string;
  /** The answer's status line and headers. */
  head: string;
  /** The server closed the socket (after an answer or without one). */
  closed: boolean;
  /** Neither an answer nor a close within the wait: a socket left held. */
  held: boolean;
  ms: number;
}

/** Sends `raw` on a fresh socket and waits for the answer's head (then hangs up), the server's
 *  close, or `waitMs`. */
function probe(raw: string | Buffer, waitMs = 10_000): Promise<Outcome> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const socket = connect(port, HOST);
    let got = Buffer.alloc(0);
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const text = got.toString("latin1");
      const status = /^HTTP\/1\.[01] \d{3}[^\r\n]*/.exec(text)?.[0] ?? "";
      socket.destroy();
      resolve({ status, head: text.split("\r\n\r\n")[0]!, closed, held: !status && !closed, ms: Date.now() - t0 });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on("connect", () => socket.write(raw));
    socket.on("data", (d) => {
      got = Buffer.concat([got, d]);
      if (got.includes("\r\n\r\n")) finish(false);
    });
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
  });
}

/** The server is still there: its process runs and /healthz answers as it did at the start. */
async function stillServing(after: string) {
  expect(child.exitCode, `the server exited after ${after}:\n${log.slice(-3000)}`).toBeNull();
  const res = await fetch(`http://${HOST}:${port}/healthz`, { signal: AbortSignal.timeout(5000) });
  expect(res.status, `/healthz after ${after}`).toBe(healthyStatus);
  await res.text();
}

const request = (method: string, target: string, headers = "", body = "") =>
  `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}${body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : ""}\r\n${body}`;

/** Request targets Node's parser lets through and the WHATWG URL parser does not, and friends. */
const ODD_TARGETS = [
  "//[",
  "http://[",
  "/\\[",
  "%",
  "/%",
  "/%zz",
  "/%00",
  "/%E0%A4%A",
  "//",
  "///[",
  "//evil.example/path",
  "/..",
  "/../../etc/passwd",
  "/?%",
  "/?[",
  "/#x",
  "/a".repeat(3000),
  `/${"x".repeat(15_000)}`,
  "/\x01",
  "/\x7f",
  "/\xff\xfe",
  "http://127.0.0.1/",
  "http://evil.example//[",
  "https://x/api/v1/health",
  "mailto:x",
  "*",
  "/api/v1/%",
  "/api/v1//[",
  "/api/v1/challenges/%ZZ",
  "/assets/%",
  "/ws/deployments/[",
  "/ws/deployments/%",
  "/ws/terminal/x",
  "/ws/terminal/",
  "/ws/terminal//[",
  "/metrics?%",
  "/healthz#",
];

/** Every path of the web (app/routes.ts) and of the API (its OpenAPI document), parameters filled. */
async function everyPath(): Promise<string[]> {
  const web = [...readFileSync("app/routes.ts", "utf8").matchAll(/route\("([^"]+)"/g)].map((m) => `/${m[1]!.replace(/:\w+/g, "x")}`);
  const doc = (await (await fetch(`http://${HOST}:${port}/api/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
  const api = Object.keys(doc.paths).map((p) => `/api/v1${p.replace(/\{\w+\}/g, "x")}`);
  const ws = [
    `/ws/deployments/${session.deploymentId}`,
    `/ws/terminal/${session.deploymentId}`,
    `/ws/terminal/${session.deploymentId}?cols=1e9&rows=-1&offset=NaN&shell=%`,
    `/ws/deployments/${randomUUID()}`,
  ];
  return [...new Set(["/", "/healthz", "/metrics", "/assets/x.js", ...web, ...api, ...ws])];
}

describe("raw sockets against the real server", () => {
  it("each odd target, with and without Connection: Upgrade, is answered or closed, and /healthz still answers", async () => {
    const held: string[] = [];
    const fiveHundreds: string[] = [];
    for (const target of ODD_TARGETS) {
      for (const [name, headers] of [
        ["plain", ""],
        ["upgrade", WS_HEADERS],
        ["upgrade h2c", "Connection: Upgrade\r\nUpgrade: h2c\r\n"],
      ] as const) {
        for (const method of ["GET", "HEAD", "POST", "OPTIONS"]) {
          const what = `${method} ${JSON.stringify(target.slice(0, 60))} ${name}`;
          const out = await probe(request(method, target, headers, method === "POST" ? "a=1" : ""));
          if (out.held) held.push(what);
          // /healthz answers 503 by design here (the engine is unreachable).
          if (/^HTTP\/1\.1 5\d\d/.test(out.status) && !target.startsWith("/healthz")) fiveHundreds.push(`${what} → ${out.status}`);
          await stillServing(what);
        }
      }
    }
    // CONNECT and OPTIONS * (the other request-target forms).
    for (const raw of [
      "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n",
      "CONNECT [ HTTP/1.1\r\nHost: x\r\n\r\n",
      "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
      `OPTIONS * HTTP/1.1\r\nHost: x\r\n${WS_HEADERS}\r\n`,
    ]) {
      const out = await probe(raw);
      if (out.held) held.push(JSON.stringify(raw));
      if (/^HTTP\/1\.1 5\d\d/.test(out.status)) fiveHundreds.push(`${JSON.stringify(raw)} → ${out.status}`);
      await stillServing(JSON.stringify(raw));
    }
    expect(held, "sockets neither answered nor closed").toEqual([]);
    expect(fiveHundreds, "server errors").toEqual([]);
  }, 120_000);

  it("a path of thousands of segments is not found without rendering a page (React Router matched every prefix of it)", async () => {
    for (const n of [40, 3000, 7000]) {
      const out = await probe(request("GET", "/a".repeat(n)), 30_000);
      expect(out.status, `${n} segments`).toBe("HTTP/1.1 404 Not Found");
      expect(out.head, `${n} segments`).toMatch(/content-type: text\/plain/i);
      await stillServing(`a path of ${n} segments`);
    }
    // The app's own pages and their not-found page are untouched.
    const page = await probe(request("GET", "/challenges/a/b/c"));
    expect(page.head).toMatch(/content-type: text\/html/i);
  });

  it("`GET //[` with and without Connection: Upgrade, then a reset: the process stays up", async () => {
    for (const headers of ["", WS_HEADERS]) {
      const out = await probe(request("GET", "//[", headers));
      expect(out.held).toBe(false);
      expect(out.status).toMatch(/^HTTP\/1\.1 (400|404)/);
      await stillServing(`GET //[ ${headers ? "with" : "without"} upgrade`);
    }
    // A client that resets its upgrade's socket right after sending it.
    for (let i = 0; i < 20; i++) {
      const s = connect(port, HOST, () => {
        s.write(request("GET", i % 2 ? "/ws/terminal/x" : `/ws/deployments/${session.deploymentId}`, WS_HEADERS));
        setTimeout(() => s.resetAndDestroy(), i % 5);
      });
      s.on("error", () => {});
    }
    await new Promise((r) => setTimeout(r, 300));
    await stillServing("upgrades reset by their clients");
  });

  it("odd headers on pages, the API and upgrades are answered, never with a server error", async () => {
    const pad = "a".repeat(8000);
    const ODD_HEADERS = [
      "Host: [\r\n",
      "Host: a b\r\n",
      `Host: ${"h".repeat(300)}\r\n`,
      "Host: 127.0.0.1\r\nHost: evil.example\r\n",
      "X-Forwarded-Proto: a b\r\n",
      "X-Forwarded-Proto: https, http\r\n",
      "X-Forwarded-Host: [\r\n",
      "X-Forwarded-Host: evil.example:99999\r\n",
      "X-Forwarded-For: [, ::::, 999.1.1.1\r\n",
      'Forwarded: for="["\r\n',
      "Origin: [\r\n",
      "Origin: null\r\n",
      "Origin: http://[\r\n",
      "Cookie: __faultline=%\r\n",
      `Cookie: ${pad}\r\n`,
      "Cookie: a=b; ; =; __faultline=\r\n",
      "Authorization: Bearer \r\n",
      "Authorization: Bearer %%%.%%%.%%%\r\n",
      `Authorization: Bearer ${pad}\r\n`,
      "Authorization: Basic Og==\r\n",
      "Accept-Encoding: br;q=NaN, gzip;q=-1, *;q=9\r\n",
      "Accept-Encoding: ,,,\r\n",
      "Range: bytes=-1-2\r\n",
      "Range: bytes=99999999999999999999-\r\n",
      'If-None-Match: "\r\n',
      "If-Modified-Since: yesterday\r\n",
      "X-Request-Id: ../../etc/passwd\r\n",
      "Content-Type: multipart/form-data; boundary=\r\n",
      "Accept-Language: \u00ff\u00fe\r\n",
      "Sec-WebSocket-Key: %\r\nSec-WebSocket-Version: 99\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n",
      `${WS_HEADERS}Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=99; server_max_window_bits=0; x=\r\n`,
      `${WS_HEADERS}Sec-WebSocket-Protocol: ${"p,".repeat(2000)}\r\n`,
    ];
    const targets = [
      "/",
      "/challenges",
      "/login",
      "/api/v1/challenges",
      `/ws/deployments/${session.deploymentId}`,
      `/ws/terminal/${session.deploymentId}`,
      "/assets/x.js",
      "/metrics",
    ];
    const bad: string[] = [];
    for (const target of targets) {
      for (const h of ODD_HEADERS) {
        for (const method of ["GET", "POST"]) {
          const raw = `${method} ${target} HTTP/1.1\r\n${h.startsWith("Host:") ? "" : "Host: 127.0.0.1\r\n"}${h}${method === "POST" ? "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\na=1" : "\r\n"}`;
          const what = `${method} ${target} ${JSON.stringify(h.slice(0, 70))}`;
          const out = await probe(raw);
          if (out.held || /^HTTP\/1\.1 5\d\d/.test(out.status)) bad.push(`${what} → ${out.held ? "held" : out.status}`);
          await stillServing(what);
        }
      }
    }
    // HTTP/1.0 without a Host, and a request with no headers at all.
    for (const raw of ["GET / HTTP/1.0\r\n\r\n", "GET //[ HTTP/1.0\r\n\r\n", `GET /ws/terminal/x HTTP/1.0\r\n${WS_HEADERS}\r\n`]) {
      const out = await probe(raw);
      if (out.held || /^HTTP\/1\.[01] 5\d\d/.test(out.status)) bad.push(`${JSON.stringify(raw)} → ${out.held ? "held" : out.status}`);
      await stillServing(JSON.stringify(raw));
    }
    expect(bad).toEqual([]);
  }, 120_000);

  it("an upgrade to every path of the web and the API, with and without a session, is answered and closed", async () => {
    const paths = await everyPath();
    expect(paths.length).toBeGreaterThan(60);
    const sessions = [
      ["no session", ""],
      ["cookie", `Cookie: ${session.cookie}\r\nOrigin: ${PUBLIC_URL}\r\n`],
      ["bearer", `Authorization: Bearer ${session.bearer}\r\n`],
    ] as const;
    const held: string[] = [];
    const answers = new Map<string, number>();
    for (const path of paths) {
      for (const [who, headers] of sessions) {
        const out = await probe(request("GET", path, `${WS_HEADERS}${headers}`));
        if (out.held) held.push(`${path} (${who})`);
        answers.set(out.status.slice(9, 12), (answers.get(out.status.slice(9, 12)) ?? 0) + 1);
        await stillServing(`an upgrade to ${path} (${who})`);
      }
    }
    expect(held).toEqual([]);
    // Pages and the API refuse upgrades (404); the two WebSocket routes accept, then say why
    // they close (their close frames come after the 101).
    expect(answers.get("404")).toBeGreaterThan(paths.length * 2);
    expect(answers.get("101")).toBeGreaterThanOrEqual(3 * 3);
  }, 120_000);

  it("upgrades nobody serves are closed at once, 300 at a time with 15 KB of headers each", async () => {
    const pad = `X-Pad: ${"a".repeat(15_000)}\r\n`;
    const t0 = Date.now();
    const outcomes = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        probe(request("GET", i % 3 === 0 ? "/ws/terminal/x" : i % 3 === 1 ? "/ws/elsewhere" : "/ws/terminal/", `${WS_HEADERS}${pad}`), 5000),
      ),
    );
    expect(outcomes.filter((o) => o.held)).toEqual([]);
    expect(outcomes.every((o) => o.status.startsWith("HTTP/1.1 404"))).toBe(true);
    console.log(`[raw-fuzz] 300 unserved upgrades answered 404 and closed in ${Date.now() - t0} ms`);
    await stillServing("300 unserved upgrades");
  });

  it("/metrics in production: refused on the public port without METRICS_TOKEN, even from loopback with no proxy; served on METRICS_PORT", async () => {
    const pub = await fetch(`http://${HOST}:${port}/metrics`);
    expect(pub.status).toBe(403);
    expect(await pub.text()).toBe(METRICS_NEED_TOKEN);
    // Logged before the gateway's line, which the start waited for.
    const metricsPort = Number(/metrics on http:\/\/127\.0\.0\.1:(\d+)\/metrics/.exec(log)?.[1]);
    expect(metricsPort).toBeGreaterThan(0);
    const own = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(own.status).toBe(200);
    const text = await own.text();
    expect(text).toContain("faultline_http_request_duration_seconds");
    // Nothing went uncaught during everything above.
    expect(text).not.toMatch(/^faultline_uncaught_errors_total\{[^}]*\} [1-9]/m);
    expect(log).not.toMatch(/uncaught exception|unhandled promise rejection/i);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/elsewhere`)).status).toBe(404);
  });
});
