// GET /api/v1/leaderboard at 1,000 / 10,000 / 100,000 players (10 submissions each over 90
// days, bench/seed.ts): every period, page 1, the deepest page, a search for a word in ~7 % of
// the names ("amber") and a search for one player's name, with autocannon against the real API
// (server/platform.ts behind Node's HTTP server, as server.ts serves it; no runtime, no gateway,
// no worker). Every caller is served from the public read cache (server/core/public-cache.ts,
// checked against the database's change counter on every request), so three kinds:
//   uncached  signed in, the cache bypassed (header x-bench-uncached, honoured by this bench's
//             server only): what a request costs when its answer is not cached, the first read
//             after a solve by a player already on the board; at 1 and 10 connections
//   joined    (the word search only) uncached, and the first read after a player joins or
//             leaves the board: after each answer of this kind the server moves a player of its
//             own, whose name holds the word, onto every board or off them (a solve of theirs
//             inserted or deleted, as grading and an account's deletion write them), one such
//             change at a time. The search's count is kept by triggers through it (migration
//             0022); before, it was remembered in the process against the board's version and
//             counted again by a walk of the board
//   cold      (the word search only) uncached, and its count not kept either: the first time the
//             word is searched on the board (server/core/scoring.ts counts it by walking the
//             board's range and keeps it): what every "joined" read cost before migration 0022
//   signed-in signed in (a real access token), from the cache; 10 connections
//   visitor   anonymous, from the cache; 10 connections
// Prints p50 / p95 / req/s per case and size, the word search after a join against its first
// ask (the previous approach's cost of every read after a join), then how p95 grows from the
// smallest board. The
// server runs in a child process of its own, so autocannon does not share its event loop.
// Then a mixed case, what players get on a busy site: 10 connections reading a mix like real
// traffic (pages 1-3 mostly, some deep pages, some searches for names and words, every period,
// signed in or not, through the cache) while solves land at 0, 1 and 5 per second (up to
// 430,000 a day), each written as grading writes a passing check's (the submission and the solve
// in one transaction, the player's stats read before and after; no container runs the check).
// It prints p50 / p95 and the cache's hit ratio; the bench's solves are deleted afterwards, so
// the seeded database stays as it was. These are not the uncached figures above: those say what
// a read costs when it misses.
//
//   npm run bench:leaderboard -- [sizes=1000,10000,100000] [seconds=3]
//   BENCH_POSTGRES_URL=postgres://user@host/postgres npm run bench:leaderboard   # PostgreSQL instead
//
// Seeded SQLite files are kept in $TMPDIR/faultline-bench/ and reused (delete them to reseed).
// Over 350 lines: one bench: seeding, the server under test, autocannon runs and the printed table
//  for each database, read top to bottom.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { createInterface } from "node:readline";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { sql } from "kysely";
import pg from "pg";
import { loadConfig } from "#server/config.ts";
import { sendResponse, toRequest } from "#server/http/http.ts";
import { createPlatform } from "#server/platform.ts";
import { CHALLENGES_DIR, loadLibrary } from "#server/library/challenges.ts";
import { PERIODS } from "#shared/contract/index.ts";
import { seed } from "./seed.ts";

// autocannon ships no types: the part used here.
interface Tracker extends PromiseLike<{ requests: { average: number; total: number }; errors: number; timeouts: number }> {
  on(event: "response", fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}
const autocannon = createRequire(import.meta.url)("autocannon") as (opts: object) => Tracker;
type Platform = Awaited<ReturnType<typeof createPlatform>>;

const sizes = (process.argv[2] ?? "1000,10000,100000").split(",").map(Number);
const seconds = Number(process.argv[3] ?? 3);
const postgresAdmin = process.env.BENCH_POSTGRES_URL;
const SEARCH = "amber";
/** Solves per second landing during the mixed case. */
const SOLVE_RATES = [0, 1, 5];
const MIXED_SECONDS = Math.max(10, seconds * 3);
/** Words the mixed case searches for (each in ~7 % of the seeded names, or part of a name). */
const MIXED_WORDS = ["amber", "raven", "pixel", "onyx", "delta", "quartz", "ember", "willow"];

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
  /** PostgreSQL's CPU time per request (its backends; 0 on SQLite, which runs in the server process). */
  dbCpuMs: number;
}

/** CPU time (ms) a process has used so far, from /proc (clock ticks of 10 ms), and its parent. */
function statOf(pid: number): { cpu: number; ppid: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { cpu: (Number(fields[11]) + Number(fields[12])) * 10, ppid: Number(fields[1]) };
}
const cpuOf = (pid: number) => statOf(pid).cpu;

/** PostgreSQL's server process (the postmaster) when it runs on this machine: its CPU counts too. */
let postmaster: number | null = null;
/** CPU time (ms) of the postmaster and its live children (the backends serving the bench). */
function databaseCpu(): number {
  if (postmaster === null) return 0;
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const s = statOf(Number(entry));
      if (Number(entry) === postmaster || s.ppid === postmaster) total += s.cpu;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

async function measure(pid: number, url: string, connections: number, headers: Record<string, string>): Promise<Figure> {
  const [cpu0, db0] = [cpuOf(pid), databaseCpu()];
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
    dbCpuMs: (databaseCpu() - db0) / Math.max(1, result.requests.total),
  };
}

/**
 * The mixed case: each request picks a period (all time 40 %, the others 20 % each), then page 1
 * (55 %), 2 (15 %) or 3 (10 %), a deep page (5 %, anywhere on the board), a name (8 %, a player
 * of some board or one who never solved) or a word (7 %); half the requests are signed in. All
 * through the cache, as served, while `rate` solves a second land.
 */
async function measureMixed(pid: number, origin: string, token: string, totals: Record<string, number>, names: string[], rate: number) {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const path = () => {
    const r = Math.random();
    const period = r < 0.4 ? "all_time" : pick(PERIODS.filter((p) => p !== "all_time"));
    const q = Math.random();
    const last = Math.max(1, Math.ceil(totals[period]! / 15));
    const page = q < 0.55 ? 1 : q < 0.7 ? 2 : q < 0.8 ? 3 : q < 0.85 ? 1 + Math.floor(Math.random() * last) : 0;
    if (page) return `/api/v1/leaderboard?period=${period}&page=${page}`;
    return `/api/v1/leaderboard?period=${period}&search=${encodeURIComponent(q < 0.93 ? pick(names) : pick(MIXED_WORDS))}`;
  };
  const signedIn = { authorization: `Bearer ${token}` };
  await fetch(`${origin}/bench/solves?rate=${rate}`);
  await fetch(`${origin}/bench/reads`);
  const [cpu0, db0] = [cpuOf(pid), databaseCpu()];
  const times: number[] = [];
  let errors = 0;
  const instance = autocannon({
    url: origin,
    connections: 10,
    duration: MIXED_SECONDS,
    requests: [{ method: "GET", setupRequest: (req: object) => ({ ...req, path: path(), headers: Math.random() < 0.5 ? signedIn : {} }) }],
  });
  instance.on("response", (_client, status, _bytes, ms) => {
    if (status !== 200) errors++;
    times.push(ms);
  });
  const result = await instance;
  const { landed } = (await (await fetch(`${origin}/bench/solves?rate=0`)).json()) as { landed: number };
  const reads = (await (await fetch(`${origin}/bench/reads`)).json()) as { gets: number; loads: number };
  return {
    landed,
    hitRatio: reads.gets ? 1 - reads.loads / reads.gets : NaN,
    p99: pct(times, 99),
    figure: {
      p50: pct(times, 50),
      p95: pct(times, 95),
      rps: result.requests.average,
      errors: errors + result.errors + result.timeouts,
      cpuMs: (cpuOf(pid) - cpu0) / Math.max(1, result.requests.total),
      dbCpuMs: (databaseCpu() - db0) / Math.max(1, result.requests.total),
    },
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
  // Reads through the cache, and how many of them had to load (the mixed case's hit ratio).
  const reads = { gets: 0, loads: 0 };
  cache.get = <T>(key: string, load: () => Promise<T>) => {
    if (uncached.getStore()) return load();
    reads.gets++;
    return cachedGet(key, () => {
      reads.loads++;
      return load();
    });
  };
  const solver = solvesLanding(platform);
  const joiner = await boardJoiner(platform);
  const server = createServer(async (req, res) => {
    // The bench's own controls (this server only): solves landing, the cache's counts.
    if (req.url?.startsWith("/bench/")) {
      const u = new URL(req.url, "http://127.0.0.1");
      let body: unknown = null;
      if (u.pathname === "/bench/solves") body = await solver.rate(Number(u.searchParams.get("rate") ?? 0));
      if (u.pathname === "/bench/reads") [body, reads.gets, reads.loads] = [{ ...reads }, 0, 0];
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      return;
    }
    const handle = () => platform.api.handle(toRequest(req, "http://127.0.0.1"), { clientIp: "127.0.0.1" });
    // Cold: nor a search's count kept from before (what a search costs the first time it is asked).
    if (req.headers["x-bench-uncached"] === "cold") await platform.scoring.forgetSearchCounts();
    await sendResponse(res, await (req.headers["x-bench-uncached"] ? uncached.run(true, handle) : handle()));
    // Joined: the board changes after the answer, so this connection's next read is the first
    // after a join (or a leave).
    if (req.headers["x-bench-uncached"] === "joined") joiner.move();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const someone = await platform.db.selectFrom("users").select(["id", "username"]).limit(1).executeTakeFirstOrThrow();
  const totals = Object.fromEntries(await Promise.all(PERIODS.map(async (p) => [p, (await platform.scoring.leaderboard({ period: p })).total] as const)));
  // A player on today's board (so on every board): the name search finds them everywhere.
  const name = (await platform.scoring.leaderboard({ period: "today" })).entries[0]?.username ?? someone.username;
  // Names the mixed case searches for: a few players of each board's first pages and some who
  // never solved anything (a search that finds no one).
  const names = [
    ...(
      await Promise.all(PERIODS.map(async (p) => (await platform.scoring.leaderboard({ period: p, page: 2 })).entries.slice(0, 4).map((e) => e.username)))
    ).flat(),
    ...(await platform.db.selectFrom("users").select("username").orderBy("id").limit(8).execute()).map((u) => u.username),
  ];
  // PostgreSQL on this machine: its server process, whose CPU the parent counts beside ours.
  let pgServer: number | null = null;
  if (/^postgres/.test(databaseUrl)) {
    const backend = Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(platform.db)).rows[0]?.pid);
    try {
      pgServer = statOf(backend).ppid;
    } catch {
      // Another machine's: its CPU is not ours to see.
    }
  }
  console.log(
    JSON.stringify({ port: (server.address() as AddressInfo).port, token: (await platform.tokens.issue(someone)).access_token, totals, name, names, pgServer }),
  );
  process.on("SIGTERM", () => {
    server.close();
    void solver
      .clear()
      .then(() => joiner.clear())
      .then(() => platform.close())
      .then(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
  });
}

/**
 * Solves landing at a steady rate, each written as grading writes a passing check's
 * (server/core/grading.ts): the player's stats read, the submission and the solve inserted in
 * one transaction (the score triggers then move the boards and the change counter), the stats
 * read again. A random seeded player and challenge; a pair already solved inserts no solve, as
 * in grading. `clear()` deletes the bench's solves and submissions (the triggers take the
 * points back off the boards).
 */
function solvesLanding(platform: Platform) {
  const { db, scoring } = platform;
  const challenges = loadLibrary(CHALLENGES_DIR).challenges;
  const made: { user_id: string; challenge_id: string; submission: string }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let landed = 0;
  let users: string[] = [];
  async function solveOne() {
    if (!users.length) users = (await db.selectFrom("users").select("id").execute()).map((u) => u.id);
    const userId = users[Math.floor(Math.random() * users.length)]!;
    const challenge = challenges[Math.floor(Math.random() * challenges.length)]!;
    await scoring.userStats(userId);
    const now = Math.floor(Date.now() / 1000);
    const submission = randomUUID();
    const inserted = await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("submissions")
        .values({
          id: submission,
          user_id: userId,
          challenge_id: challenge.id,
          deployment_id: randomUUID(),
          solution: "bench",
          is_correct: 1,
          feedback: "Correct!",
          created_at: now,
        })
        .execute();
      return trx
        .insertInto("solves")
        .values({ user_id: userId, challenge_id: challenge.id, deployment_id: randomUUID(), points: challenge.points, solve_seconds: 600, solved_at: now })
        .onConflict((oc) => oc.columns(["user_id", "challenge_id"]).doNothing())
        .executeTakeFirst();
    });
    const solved = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    made.push({ user_id: userId, challenge_id: challenge.id, submission: solved ? submission : "" });
    if (!solved) await db.deleteFrom("submissions").where("id", "=", submission).execute();
    else landed++;
    await scoring.userStats(userId);
  }
  return {
    async rate(perSecond: number) {
      clearInterval(timer);
      const before = landed;
      landed = 0;
      if (perSecond > 0) timer = setInterval(() => void solveOne().catch((e) => console.error("bench solve", e)), 1000 / perSecond);
      return { landed: before };
    },
    async clear() {
      clearInterval(timer);
      for (const m of made.filter((m) => m.submission)) {
        await db.deleteFrom("solves").where("user_id", "=", m.user_id).where("challenge_id", "=", m.challenge_id).execute();
        await db.deleteFrom("submissions").where("id", "=", m.submission).execute();
      }
    },
  };
}

/**
 * A player of the bench's own whose name holds the searched word, moved onto every board (a solve
 * now, inserted) and off them (the solve deleted) in turn, one change at a time (a call while
 * one is under way does nothing). `clear()` deletes the player (the triggers take them off the
 * boards).
 */
async function boardJoiner(platform: Platform) {
  const { db } = platform;
  const challenge = loadLibrary(CHALLENGES_DIR).challenges[0]!;
  const id = randomUUID();
  const username = `${SEARCH}-joiner-${id.slice(0, 6)}`;
  await db
    .insertInto("users")
    .values({
      id,
      username,
      email: `${username}@bench.example.test`,
      password_hash: null,
      display_name: null,
      bio: null,
      location: null,
      github_username: null,
      oauth_provider: null,
      ssh_public_key: null,
      ssh_key_fingerprint: null,
      totp_secret: null,
      totp_last_step: null,
      created_at: 1,
      updated_at: 1,
    })
    .execute();
  let busy = false;
  let on = false;
  return {
    move() {
      if (busy) return;
      busy = true;
      const change = on
        ? db.deleteFrom("solves").where("user_id", "=", id).execute()
        : db
            .insertInto("solves")
            .values({
              user_id: id,
              challenge_id: challenge.id,
              deployment_id: randomUUID(),
              points: challenge.points,
              solve_seconds: 600,
              solved_at: Math.floor(Date.now() / 1000),
            })
            .execute();
      void change
        .then(() => void (on = !on))
        .catch((e) => console.error("bench join", e))
        .finally(() => void (busy = false));
    },
    async clear() {
      await db.deleteFrom("users").where("id", "=", id).execute();
    },
  };
}

if (process.argv[2] === "--serve") {
  await serve(process.argv[3]!);
} else {
  await main();
}

async function main() {
  type Row = { case: string; kind: "uncached" | "joined" | "cold" | "signed-in" | "visitor"; connections: number; figure: Figure };
  const results = new Map<number, Row[]>();

  for (const users of sizes) {
    const databaseUrl = await databaseFor(users);
    const loadBefore = loadavg()
      .map((l) => l.toFixed(1))
      .join(" ");
    const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, "--serve", databaseUrl], { stdio: ["ignore", "pipe", "inherit"] });
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    });
    const { port, token, totals, name, names, pgServer } = JSON.parse(first) as {
      port: number;
      token: string;
      totals: Record<string, number>;
      name: string;
      names: string[];
      pgServer: number | null;
    };
    postmaster = pgServer;
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
          rows.push({
            case: label,
            kind: "uncached",
            connections,
            figure: await measure(child.pid!, base + query, connections, { ...signedIn, "x-bench-uncached": "1" }),
          });
        }
        // A word's search: the first read after a join (its count kept through it), and the first
        // time it is asked (counted by a walk of the board, as every read after a join was before).
        if (label.endsWith(" search") && !label.endsWith("name search")) {
          for (const kind of ["joined", "cold"] as const) {
            for (const connections of [1, 10]) {
              rows.push({
                case: label,
                kind,
                connections,
                figure: await measure(child.pid!, base + query, connections, { ...signedIn, "x-bench-uncached": kind }),
              });
            }
          }
        }
        rows.push({ case: label, kind: "signed-in", connections: 10, figure: await measure(child.pid!, base + query, 10, signedIn) });
        rows.push({ case: label, kind: "visitor", connections: 10, figure: await measure(child.pid!, base + query, 10, {}) });
      }
    }
    results.set(users, rows);
    console.log(
      `\n${users.toLocaleString("en")} players (${postgresAdmin ? "PostgreSQL" : "SQLite"}; board sizes: ${PERIODS.map((p) => `${p} ${totals[p]}`).join(", ")}; name searched: ${name}; load average 1/5/15 min before ${loadBefore}, after ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")})`,
    );
    console.log(
      "| case | caller | connections | p50 ms | p95 ms | req/s | server CPU ms/req | PostgreSQL CPU ms/req | errors |\n|---|---|---|---|---|---|---|---|---|",
    );
    for (const r of rows) {
      console.log(
        `| ${r.case} | ${r.kind} | ${r.connections} | ${r.figure.p50.toFixed(1)} | ${r.figure.p95.toFixed(1)} | ${Math.round(r.figure.rps)} | ${r.figure.cpuMs.toFixed(2)} | ${postmaster ? r.figure.dbCpuMs.toFixed(2) : "–"} | ${r.figure.errors} |`,
      );
    }
    console.log(
      `\nWord search after a join against its first ask (counted by a walk of the board: before migration 0022, every read after a join), ${users.toLocaleString("en")} players`,
    );
    console.log("| case | connections | after a join p50 / p95 ms | first ask p50 / p95 ms | p95 ratio |\n|---|---|---|---|---|");
    for (const r of rows.filter((r) => r.kind === "joined")) {
      const c = rows.find((x) => x.kind === "cold" && x.case === r.case && x.connections === r.connections)!;
      console.log(
        `| ${r.case} | ${r.connections} | ${r.figure.p50.toFixed(1)} / ${r.figure.p95.toFixed(1)} | ${c.figure.p50.toFixed(1)} / ${c.figure.p95.toFixed(1)} | ${(r.figure.p95 / Math.max(0.1, c.figure.p95)).toFixed(2)} |`,
      );
    }
    const mixed = [];
    for (const rate of SOLVE_RATES) mixed.push({ rate, ...(await measureMixed(child.pid!, `http://127.0.0.1:${port}`, token, totals, names, rate)) });
    console.log(
      `\nMixed reads as players get them (${users.toLocaleString("en")} players, 10 connections, ${MIXED_SECONDS} s each; load average after ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")})`,
    );
    console.log(
      "| solves landing | solves landed | req/s | p50 ms | p95 ms | p99 ms | cache hit ratio | server CPU ms/req | PostgreSQL CPU ms/req | errors |\n|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const m of mixed) {
      console.log(
        `| ${m.rate}/s (${(m.rate * 86400).toLocaleString("en")}/day) | ${m.landed} | ${Math.round(m.figure.rps)} | ${m.figure.p50.toFixed(1)} | ${m.figure.p95.toFixed(1)} | ${m.p99.toFixed(1)} | ${(m.hitRatio * 100).toFixed(1)} % | ${m.figure.cpuMs.toFixed(2)} | ${postmaster ? m.figure.dbCpuMs.toFixed(2) : "–"} | ${m.figure.errors} |`,
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
