// GET /api/v1/leaderboard at 1,000 / 10,000 / 100,000 players (10 submissions each over 90
// days, bench/seed.ts): every period, page 1, the deepest page, a search for a word in ~7 % of
// the names ("amber") and a search for one player's name, with autocannon against the real API
// (server/platform.ts behind Node's HTTP server, as server.ts serves it; no runtime, no gateway,
// no worker). Every caller is served from the public read cache (server/core/public-cache.ts,
// checked against the database's change counter on every request), so three kinds:
//   uncached  signed in, the cache bypassed (header x-bench-uncached, honoured by this bench's
//             server only): what a request costs when its answer is not cached, the first read
//             after a solve; at 1 and 10 connections
//   signed-in signed in (a real access token), from the cache; 10 connections
//   visitor   anonymous, from the cache; 10 connections
// Prints p50 / p95 / req/s per case and size, then how p95 grows from the smallest board. The
// server runs in a child process of its own, so autocannon does not share its event loop.
//
//   npm run bench:leaderboard -- [sizes=1000,10000,100000] [seconds=3]
//   BENCH_POSTGRES_URL=postgres://user@host/postgres npm run bench:leaderboard   # PostgreSQL instead
//
// Seeded SQLite files are kept in $TMPDIR/faultline-bench/ and reused (delete them to reseed).
import { AsyncLocalStorage } from "node:async_hooks";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { createInterface } from "node:readline";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import pg from "pg";
import { loadConfig } from "../server/config.ts";
import { sendResponse, toRequest } from "../server/http.ts";
import { createPlatform } from "../server/platform.ts";
import { PERIODS } from "../shared/contract/index.ts";
import { seed } from "./seed.ts";

// autocannon ships no types: the part used here.
interface Tracker extends PromiseLike<{ requests: { average: number; total: number }; errors: number; timeouts: number }> {
  on(event: "response", fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}
const autocannon = createRequire(import.meta.url)("autocannon") as (opts: object) => Tracker;

const sizes = (process.argv[2] ?? "1000,10000,100000").split(",").map(Number);
const seconds = Number(process.argv[3] ?? 3);
const postgresAdmin = process.env.BENCH_POSTGRES_URL;
const SEARCH = "amber";

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]! : NaN;
};

async function databaseFor(users: number): Promise<string> {
  if (postgresAdmin) {
    const name = `faultline_bench_${users}`;
    const admin = new pg.Client({ connectionString: postgresAdmin });
    await admin.connect();
    const exists = (await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount;
    if (!exists) await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(postgresAdmin);
    url.pathname = `/${name}`;
    if (!exists) await seedLogged(url.toString(), users);
    return url.toString();
  }
  const dir = join(tmpdir(), "faultline-bench");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `leaderboard-${users}.db`);
  if (!existsSync(file)) {
    // Seeded under another name first: an interrupted seed is never taken for a finished one.
    rmSync(`${file}.partial`, { force: true });
    await seedLogged(`sqlite:${file}.partial`, users);
    renameSync(`${file}.partial`, file);
  }
  return `sqlite:${file}`;
}

async function seedLogged(databaseUrl: string, users: number) {
  const r = await seed({ databaseUrl, users, submissions: users * 10 });
  console.log(`seeded ${r.users} players, ${r.submissions} submissions, ${r.solves} solves in ${r.seconds.toFixed(1)} s`);
}

interface Figure {
  p50: number;
  p95: number;
  rps: number;
  errors: number;
  /** The server process's CPU time per request (user + system): what a request costs, whatever else the machine runs. */
  cpuMs: number;
}

/** CPU time (ms) a process has used so far, from /proc (clock ticks of 10 ms). */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function measure(pid: number, url: string, connections: number, headers: Record<string, string>): Promise<Figure> {
  const cpu0 = cpuOf(pid);
  const times: number[] = [];
  let errors = 0;
  const instance = autocannon({ url, connections, duration: seconds, headers });
  instance.on("response", (_client, status, _bytes, ms) => {
    if (status !== 200) errors++;
    times.push(ms);
  });
  const result = await instance;
  return {
    p50: pct(times, 50),
    p95: pct(times, 95),
    rps: result.requests.average,
    errors: errors + result.errors + result.timeouts,
    cpuMs: (cpuOf(pid) - cpu0) / Math.max(1, result.requests.total),
  };
}

/** The child: the platform behind Node's HTTP server; tells the parent its port, a token, the boards' sizes. */
async function serve(databaseUrl: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "faultline-bench-data-"));
  const config = loadConfig({
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    RUNTIME: "none",
    LOG_LEVEL: "error",
    PUBLIC_URL: "http://127.0.0.1:3000",
  });
  const platform = await createPlatform(config);
  // The bench's own bypass of the public cache, per request (the server has none).
  const uncached = new AsyncLocalStorage<boolean>();
  const cache = platform.publicCache;
  const cachedGet = cache.get.bind(cache);
  cache.get = <T>(key: string, load: () => Promise<T>) => (uncached.getStore() ? load() : cachedGet(key, load));
  const server = createServer(async (req, res) => {
    const handle = () => platform.api.handle(toRequest(req, "http://127.0.0.1"), { clientIp: "127.0.0.1" });
    await sendResponse(res, await (req.headers["x-bench-uncached"] ? uncached.run(true, handle) : handle()));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const someone = await platform.db.selectFrom("users").select(["id", "username"]).limit(1).executeTakeFirstOrThrow();
  const totals = Object.fromEntries(await Promise.all(PERIODS.map(async (p) => [p, (await platform.scoring.leaderboard({ period: p })).total] as const)));
  // A player on today's board (so on every board): the name search finds them everywhere.
  const name = (await platform.scoring.leaderboard({ period: "today" })).entries[0]?.username ?? someone.username;
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port, token: (await platform.tokens.issue(someone)).access_token, totals, name }));
  process.on("SIGTERM", () => {
    server.close();
    void platform.close().then(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

if (process.argv[2] === "--serve") {
  await serve(process.argv[3]!);
} else {
  await main();
}

async function main() {
  type Row = { case: string; kind: "uncached" | "signed-in" | "visitor"; connections: number; figure: Figure };
  const results = new Map<number, Row[]>();

  for (const users of sizes) {
    const databaseUrl = await databaseFor(users);
    const loadBefore = loadavg().map((l) => l.toFixed(1)).join(" ");
    const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, "--serve", databaseUrl], { stdio: ["ignore", "pipe", "inherit"] });
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    });
    const { port, token, totals, name } = JSON.parse(first) as { port: number; token: string; totals: Record<string, number>; name: string };
    const base = `http://127.0.0.1:${port}/api/v1/leaderboard`;
    const signedIn = { authorization: `Bearer ${token}` };
    const rows: Row[] = [];
    for (const period of PERIODS) {
      const deep = Math.max(1, Math.ceil(totals[period]! / 15));
      const cases: [string, string][] = [
        [`${period} page 1`, `?period=${period}`],
        [`${period} page ${deep}`, `?period=${period}&page=${deep}`],
        [`${period} search`, `?period=${period}&search=${SEARCH}`],
        [`${period} name search`, `?period=${period}&search=${encodeURIComponent(name)}`],
      ];
      for (const [label, query] of cases) {
        for (const connections of [1, 10]) {
          rows.push({ case: label, kind: "uncached", connections, figure: await measure(child.pid!, base + query, connections, { ...signedIn, "x-bench-uncached": "1" }) });
        }
        rows.push({ case: label, kind: "signed-in", connections: 10, figure: await measure(child.pid!, base + query, 10, signedIn) });
        rows.push({ case: label, kind: "visitor", connections: 10, figure: await measure(child.pid!, base + query, 10, {}) });
      }
    }
    results.set(users, rows);
    console.log(
      `\n${users.toLocaleString("en")} players (${postgresAdmin ? "PostgreSQL" : "SQLite"}; board sizes: ${PERIODS.map((p) => `${p} ${totals[p]}`).join(", ")}; name searched: ${name}; load average 1/5/15 min before ${loadBefore}, after ${loadavg().map((l) => l.toFixed(1)).join(" ")})`,
    );
    console.log("| case | caller | connections | p50 ms | p95 ms | req/s | server CPU ms/req | errors |\n|---|---|---|---|---|---|---|---|");
    for (const r of rows) {
      console.log(
        `| ${r.case} | ${r.kind} | ${r.connections} | ${r.figure.p50.toFixed(1)} | ${r.figure.p95.toFixed(1)} | ${Math.round(r.figure.rps)} | ${r.figure.cpuMs.toFixed(2)} | ${r.figure.errors} |`,
      );
    }
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }

  if (sizes.length > 1) {
    const [small, large] = [sizes[0]!, sizes[sizes.length - 1]!];
    console.log(
      `\nGrowth of p95 at 10 connections from ${small.toLocaleString("en")} to ${large.toLocaleString("en")} players (${large / small}× the players)`,
    );
    console.log("| case | caller | p95 small | p95 large | ratio |\n|---|---|---|---|---|");
    const a = results.get(small)!;
    const b = results.get(large)!;
    a.forEach((r, i) => {
      if (r.connections !== 10) return;
      const q = b[i]!;
      // Deep pages differ in number between sizes: compare them by position.
      console.log(
        `| ${r.case.replace(/page \d{2,}|page [2-9]/, "deep page")} | ${r.kind} | ${r.figure.p95.toFixed(1)} | ${q.figure.p95.toFixed(1)} | ${(q.figure.p95 / Math.max(1, r.figure.p95)).toFixed(2)} |`,
      );
    });
  }
}
