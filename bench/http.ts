// Server-rendered pages against a bare React Router app (the goal: `/`, `/challenges`,
// `/leaderboard`, a challenge's page and a profile at >= 50% of the bare page's requests/s). Both
// run as production servers in processes of their own, on this machine, measured in turns (bare, page, bare, page ...) so a
// busy machine slows both alike; each page is compared with a bare page of the same HTML size
// (bench/bare/: one static route, N rows). faultline runs on SQLite seeded with bench/seed.ts
// (kept under .tmp/ and reused), without a container runtime (RUNTIME=none), as a visitor.
//
//   npm run bench:http -- [users=100000] [submissions=1000000] [seconds=10] [rounds=2]
//
// Each page three times: as a visitor without cookies (the kept page, server/http/page-cache.ts, after
// the first render), rendered each time (a visitor with a cookie: loaders and React on every
// request) and signed in (an account made for the run, signed in through the login form: the
// session, the identity check and the signed-in parts of the page on top). Prints req/s, p50/p95 latency and the ratio to the bare page for each, and the bytes
// a cold visit of `/` moves (the page and every file it loads) without and with compression.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { seed } from "./seed.ts";

// autocannon ships no types: the part used here.
type Tracker = { on(event: "response", fn: (client: unknown, status: number, bytes: number, ms: number) => void): void };
type Result = { requests: { total: number }; errors: number; non2xx: number; timeouts: number };
const autocannon = createRequire(import.meta.url)("autocannon") as (opts: object, cb: (err: Error | null, r: Result) => void) => Tracker;

const [users = 100_000, submissions = 1_000_000, seconds = 10, rounds = 2] = process.argv.slice(2).map(Number);
const ROOT = new URL("..", import.meta.url).pathname;
const BARE = join(ROOT, "bench/bare");
/** The pages the issue's goal names: the three kept for visitors, a challenge's page and a
 *  player's public profile (the leaderboard's first player: a profile with solves). */
const PAGES = ["/", "/challenges", "/leaderboard", "/challenges/nginx-broken-config", "/profile/{top}"];
const CONNECTIONS = 10;
/** A visitor with a cookie (any): never served a kept page (server/http/page-cache.ts), so every
 *  request runs the loaders and renders, as a signed-in user's does (without the identity check). */
const RENDERED = { cookie: "bench=rendered" };

/** Newest modification time under `dir` (skipping generated folders). */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "build" || e.name === ".react-router") continue;
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function buildIfStale(dir: string, sources: string[]) {
  const out = join(dir, "build/server/index.js");
  if (existsSync(out) && statSync(out).mtimeMs > Math.max(...sources.map(newest))) return;
  console.log(`building ${dir} ...`);
  execFileSync("npx", ["react-router", "build"], { cwd: dir, stdio: "ignore" });
}

async function seededDatabase(): Promise<string> {
  const dir = join(ROOT, ".tmp");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-http-${users}-${submissions}.db`);
  if (existsSync(file)) return file;
  console.log(`seeding ${users} users and ${submissions} submissions (kept in ${file}) ...`);
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const r = await seed({ databaseUrl: `sqlite:${partial}`, users, submissions, log: (m: string) => console.log(`  ${m}`) });
  console.log(`  seeded in ${Math.round(r.seconds)} s (${r.solves} solves)`);
  for (const ext of ["", "-wal", "-shm"]) if (existsSync(partial + ext)) renameSync(partial + ext, file + ext);
  return file;
}

/** Starts a server process and resolves with its port once its log says where it listens. */
function start(args: string[], env: Record<string, string>, listening: RegExp): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  return new Promise((resolve, reject) => {
    let started = false;
    const onData = (c: Buffer) => {
      if (started) return; // the pipe is still drained, the log no longer kept
      log += c;
      const m = listening.exec(log);
      if (m) {
        started = true;
        resolve({ port: Number(m[1]), child });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}):\n${log}`)));
  });
}

function get(
  url: string,
  headers: Record<string, string> = {},
  method = "GET",
  body?: string,
): Promise<{ status: number; body: Buffer; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
    })
      .on("error", reject)
      .end(body);
  });
}

/** The bench's account (made once per database: registration is rate-limited per address),
 *  signed in through the login form as a browser is: its session cookie. */
async function signedInCookie(base: string): Promise<{ cookie: string }> {
  const username = "benchsignedin";
  const password = "bench-password-1234";
  const json = { "content-type": "application/json" };
  const known = await get(`${base}/api/v1/auth/login`, json, "POST", JSON.stringify({ username_or_email: username, password }));
  if (known.status !== 200) {
    const made = await get(`${base}/api/v1/auth/register`, json, "POST", JSON.stringify({ username, email: `${username}@example.com`, password }));
    if (made.status !== 201) throw new Error(`register: ${made.status} ${made.body}`);
  }
  const form = new URLSearchParams({ username, password }).toString();
  const login = await get(`${base}/login`, { "content-type": "application/x-www-form-urlencoded", origin: base }, "POST", form);
  const set = ([] as string[]).concat((login.headers["set-cookie"] as string[] | undefined) ?? []);
  const cookie = set.map((c) => c.split(";")[0]!).join("; ");
  // The page names the account in its nav: the cookie signs in.
  const page = (await get(`${base}/`, { cookie })).body.toString();
  if (!page.includes(`data-testid="nav-username"`) || !page.includes(username)) throw new Error(`login did not sign in (${login.status})`);
  return { cookie };
}

interface Figures {
  rps: number;
  p50: number;
  p95: number;
  errors: number;
}

function load(url: string, duration: number, headers: Record<string, string> = {}): Promise<Figures> {
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const inst = autocannon({ url, connections: CONNECTIONS, duration, headers }, (err, r) => {
      if (err) return reject(err);
      times.sort((a, b) => a - b);
      const pct = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)] ?? 0;
      resolve({ rps: r.requests.total / duration, p50: pct(0.5), p95: pct(0.95), errors: r.errors + r.non2xx + r.timeouts });
    });
    inst.on("response", (_c, _status, _bytes, ms) => times.push(ms));
  });
}

/** Bytes a first visit of `url` moves: the page and every script, module and stylesheet it names. */
async function coldVisit(base: string, acceptEncoding?: string): Promise<number> {
  const headers: Record<string, string> = acceptEncoding ? { "accept-encoding": acceptEncoding } : {};
  const page = await get(`${base}/`, headers);
  const html = (await get(`${base}/`)).body.toString();
  const files = new Set([...html.matchAll(/(?:href|src)="(\/[^"]+\.(?:js|css|svg))"/g)].map((m) => m[1]!));
  let total = page.body.length;
  for (const f of files) total += (await get(`${base}${f}`, headers)).body.length;
  return total;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

buildIfStale(ROOT, [join(ROOT, "app"), join(ROOT, "shared")]);
buildIfStale(BARE, [join(BARE, "app")]);
const dbFile = await seededDatabase();

const dataDir = mkdtempSync(join(tmpdir(), "faultline-bench-http-"));
// A copy of the web build (inside the checkout, so its imports resolve to node_modules/):
// build/ may be rebuilt by a test run while this measures.
const buildCopy = join(ROOT, `.tmp/bench-http-build-${process.pid}`);
cpSync(join(ROOT, "build"), buildCopy, { recursive: true });
// "info": the line saying where it listens; requests are not logged at that level.
const prod = { NODE_ENV: "production", LOG_LEVEL: "info" };
const app = await start(
  ["bench/http-server.ts", buildCopy],
  {
    ...prod,
    HOST: "127.0.0.1",
    PORT: "0",
    SSH_PORT: "0",
    RUNTIME: "none",
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${dbFile}`,
    PUBLIC_URL: "http://127.0.0.1:3999",
  },
  /listening on http:\/\/[^:]+:(\d+)/,
);
const barePort = 20000 + Math.floor(Math.random() * 20000);
const bare = await start(["bench/bare/server.ts", String(barePort)], prod, /bare app on http:\/\/[^:]+:(\d+)/);
const appBase = `http://127.0.0.1:${app.port}`;
const bareBase = `http://127.0.0.1:${bare.port}`;

try {
  // The bare page of each page's size: sizes grow linearly with the rows.
  const bareSize = async (rows: number) => (await get(`${bareBase}/${rows}`)).body.length;
  const [s10, s100] = [await bareSize(10), await bareSize(100)];
  const perRow = (s100 - s10) / 90;
  const signedIn = await signedInCookie(appBase);
  const top = JSON.parse((await get(`${appBase}/api/v1/leaderboard?limit=1`)).body.toString()).entries[0].username as string;
  const targets = [];
  for (const path of PAGES.map((p) => p.replace("{top}", encodeURIComponent(top)))) {
    // A page a visitor is sent away from (a challenge's page asks to sign in) is measured signed in only.
    const visitor = await get(`${appBase}${path}`);
    const signedInOnly = visitor.status >= 300 && visitor.status < 400;
    const page = signedInOnly ? await get(`${appBase}${path}`, signedIn) : visitor;
    if (page.status !== 200) throw new Error(`${path}: ${page.status}`);
    const rows = Math.max(1, Math.round(10 + (page.body.length - s10) / perRow));
    targets.push({ path, signedInOnly, bytes: page.body.length, bare: `/${rows}`, bareBytes: await bareSize(rows) });
  }
  // Warm both (JIT, caches) before measuring.
  for (const t of targets) {
    await load(`${appBase}${t.path}`, 2, t.signedInOnly ? signedIn : {});
    await load(`${bareBase}${t.bare}`, 2);
  }

  const results = targets.map((t) => ({ ...t, app: [] as Figures[], rendered: [] as Figures[], signedIn: [] as Figures[], base: [] as Figures[] }));
  for (let round = 0; round < rounds; round++) {
    for (const r of results) {
      r.base.push(await load(`${bareBase}${r.bare}`, seconds));
      if (!r.signedInOnly) {
        r.app.push(await load(`${appBase}${r.path}`, seconds));
        r.rendered.push(await load(`${appBase}${r.path}`, seconds, RENDERED));
      }
      r.signedIn.push(await load(`${appBase}${r.path}`, seconds, signedIn));
    }
  }
  const mean = (xs: Figures[], k: keyof Figures) => xs.reduce((s, x) => s + x[k], 0) / xs.length;

  console.log(
    `\n${new Date().toISOString().slice(0, 10)}: ${fmt(users)} users, ${fmt(submissions)} submissions (SQLite), ${CONNECTIONS} connections, ${rounds} x ${seconds} s each, in turns with the bare page\n`,
  );
  console.log(
    "| page | HTML | bare page (same size) req/s | visitor req/s, p50 / p95 | ratio | rendered each time req/s, p50 / p95 | ratio | signed in req/s, p50 / p95 | ratio |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    const bareRps = mean(r.base, "rps");
    const cell = (xs: Figures[]) => {
      if (!xs.length) return "(signed in only) | -";
      const rps = mean(xs, "rps");
      const errors = xs.reduce((s, x) => s + x.errors, 0);
      return `${fmt(rps)}, ${fmt(mean(xs, "p50"))} / ${fmt(mean(xs, "p95"))} ms | ${(rps / bareRps).toFixed(2)}x${errors ? ` (${errors} errors)` : ""}`;
    };
    console.log(
      `| \`${r.path}\` | ${fmt(r.bytes / 1024)} kB | ${fmt(bareRps)} (${fmt(r.bareBytes / 1024)} kB) | ${cell(r.app)} | ${cell(r.rendered)} | ${cell(r.signedIn)} |`,
    );
  }
  const [plain, gzip, br] = [await coldVisit(appBase), await coldVisit(appBase, "gzip"), await coldVisit(appBase, "gzip, deflate, br")];
  console.log(
    `\ncold \`/\` (page + its scripts and stylesheet): ${fmt(plain / 1024)} kB uncompressed, ${fmt(gzip / 1024)} kB gzip, ${fmt(br / 1024)} kB brotli`,
  );
} finally {
  app.child.kill("SIGTERM");
  bare.child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(buildCopy, { recursive: true, force: true });
}
