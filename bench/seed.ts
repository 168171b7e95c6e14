// Seeds a database with players and their submissions for the benches: N users (default
// 100,000) and M submissions (default 1,000,000) spread over the last 90 days, about a third of
// them correct (the first correct one per user and challenge becomes a solve, with the
// challenge's points). Solves go in through plain inserts, so the score tables are kept by the
// same triggers as a real solve's (server/db/migrations/0008_scores.ts). Deterministic for a
// given seed number and what the database already holds: a run adds to it, its names drawn
// afresh and skipping the names taken.
//
//   DATABASE_URL=sqlite:/tmp/bench.db npx tsx bench/seed.ts [users=100000] [submissions=1000000]
//   npm run bench:seed -- 10000 100000
//
// Or from another bench: `await seed({ databaseUrl, users, submissions })`.
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { PostgresAdapter, sql } from "kysely";
import { type Db, openDatabase } from "#server/db/index.ts";
import type { Config } from "#server/config.ts";
import { CHALLENGES_DIR, loadLibrary } from "#server/library/challenges.ts";
import { refreshStatistics } from "#server/db/statistics.ts";

export interface SeedOptions {
  /** postgres://… or sqlite:/path/file.db (or a plain path). */
  databaseUrl: string;
  users?: number;
  submissions?: number;
  /** Days back from now the submissions are spread over. */
  days?: number;
  /** Share of submissions that are correct. */
  correctShare?: number;
  /** PRNG seed: the same numbers give the same players and submissions (apart from ids). */
  seed?: number;
  log?: (line: string) => void;
}

export interface SeedResult {
  users: number;
  submissions: number;
  solves: number;
  seconds: number;
}

export function databaseOf(url: string): Config["database"] {
  return /^postgres(ql)?:/.test(url) ? { kind: "postgres", url } : { kind: "sqlite", file: resolve(url.replace(/^(sqlite|file):(\/\/)?/, "")) };
}

/** mulberry32: small, fast, good enough to spread fixtures. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Two of these in every name: a search for one ("amber") finds ~7 % of the players. */
const WORDS = [
  "amber",
  "basil",
  "cobalt",
  "delta",
  "ember",
  "fjord",
  "garnet",
  "harbor",
  "indigo",
  "juniper",
  "kernel",
  "lumen",
  "maple",
  "nimbus",
  "onyx",
  "pixel",
  "quartz",
  "raven",
  "sierra",
  "tundra",
  "umber",
  "vector",
  "willow",
  "xenon",
  "yonder",
  "zephyr",
];

const NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A player's name as people pick them: two words, maybe a separator, and 2 to 5 letters or
 * digits of their own (`amberbasil42`, `onyx_raven7kq`, `delta-umberx3`). No run-wide part: a
 * search for a player's name reads trigram lists as long as real names' (a tag shared by every
 * seeded name made each name search read lists covering all of them).
 */
function nameOf(rnd: () => number): string {
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  const sep = ["", "", "_", "-"][Math.floor(rnd() * 4)]!;
  let own = "";
  for (let n = 2 + Math.floor(rnd() * 4); n > 0; n--) own += NAME_CHARS[Math.floor(rnd() * NAME_CHARS.length)];
  return `${word()}${sep}${word()}${own}`;
}

async function inChunks<T>(db: Db, rows: T[], size: number, insert: (trx: Db, chunk: T[]) => Promise<unknown>): Promise<void> {
  // SQLite: one transaction per 50 chunks (few journal syncs). PostgreSQL: one per chunk: the
  // triggers update the same counter rows for every row, and within one transaction each update
  // walks the chain of that row's versions the transaction made before (quadratic: 25,000 rows a
  // transaction made seeding 100,000 players take 35 minutes).
  const per = db.getExecutor().adapter instanceof PostgresAdapter ? 1 : 50;
  for (let i = 0; i < rows.length; i += size * per) {
    await db.transaction().execute(async (trx) => {
      for (let j = i; j < Math.min(rows.length, i + size * per); j += size) await insert(trx, rows.slice(j, j + size));
    });
  }
}

export async function seed(opts: SeedOptions): Promise<SeedResult> {
  const t0 = performance.now();
  const users = opts.users ?? 100_000;
  const submissions = opts.submissions ?? 1_000_000;
  const days = opts.days ?? 90;
  const correctShare = opts.correctShare ?? 0.3;
  const log = opts.log ?? (() => {});
  const database = databaseOf(opts.databaseUrl);
  const db = await openDatabase(database);
  try {
    if (database.kind === "sqlite") {
      // A bulk load: the journal need not be synced at every transaction.
      await sql`pragma synchronous = off`.execute(db);
    }
    const { challenges } = loadLibrary(CHALLENGES_DIR);
    if (!challenges.length) throw new Error(`no challenges found in ${CHALLENGES_DIR}`);
    const now = Math.floor(Date.now() / 1000);
    // A database seeded before gets other names (the generator starts from how many players
    // it holds) and none already taken.
    const taken = new Set((await db.selectFrom("users").select("username").execute()).map((u) => u.username.toLowerCase()));
    const rnd = prng((opts.seed ?? 12) + taken.size);

    const ids: string[] = [];
    const userRows = [];
    for (let i = 0; i < users; i++) {
      const id = randomUUID();
      ids.push(id);
      let name = nameOf(rnd);
      while (taken.has(name)) name = nameOf(rnd);
      taken.add(name);
      const created = now - Math.floor(rnd() * (days + 30) * 86400);
      userRows.push({
        id,
        username: name,
        email: `${name}@seed.example.test`,
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
        created_at: created,
        updated_at: created,
      });
    }
    await inChunks(db, userRows, 500, (trx, chunk) => trx.insertInto("users").values(chunk).execute());
    log(`users: ${users} in ${Math.round(performance.now() - t0)} ms`);

    const solved = new Set<string>();
    const subRows = [];
    const solveRows = [];
    for (let i = 0; i < submissions; i++) {
      const u = Math.floor(rnd() * users);
      const c = challenges[Math.floor(rnd() * challenges.length)]!;
      const at = now - Math.floor(rnd() * days * 86400);
      const correct = rnd() < correctShare;
      const deployment = randomUUID();
      subRows.push({
        id: randomUUID(),
        user_id: ids[u]!,
        challenge_id: c.id,
        deployment_id: deployment,
        solution: "checked the logs, found the fault, fixed it",
        is_correct: correct ? (1 as const) : (0 as const),
        feedback: correct ? "Correct!" : "Not yet.",
        created_at: at,
      });
      const key = `${u}:${c.id}`;
      if (correct && !solved.has(key)) {
        solved.add(key);
        solveRows.push({
          user_id: ids[u]!,
          challenge_id: c.id,
          deployment_id: deployment,
          points: c.points,
          solve_seconds: 60 + Math.floor(rnd() * 3600),
          solved_at: at,
        });
      }
    }
    await inChunks(db, subRows, 500, (trx, chunk) => trx.insertInto("submissions").values(chunk).execute());
    log(`submissions: ${submissions} in ${Math.round(performance.now() - t0)} ms`);
    // Oldest first, as they would have happened.
    solveRows.sort((a, b) => a.solved_at - b.solved_at);
    // The deployment each solve was made in (ended since): userStats counts attempts from them.
    const deploymentRows = solveRows.map((s) => ({
      id: s.deployment_id,
      user_id: s.user_id,
      challenge_id: s.challenge_id,
      status: "terminated" as const,
      error_message: null,
      ssh_user: s.challenge_id,
      container_id: null,
      scenario_values: null,
      active_key: null,
      created_at: s.solved_at - s.solve_seconds,
      ready_at: s.solved_at - s.solve_seconds + 1,
      expires_at: s.solved_at + 600,
      ended_at: s.solved_at + 60,
      updated_at: s.solved_at + 60,
    }));
    await inChunks(db, deploymentRows, 500, (trx, chunk) => trx.insertInto("deployments").values(chunk).execute());
    await inChunks(db, solveRows, 500, (trx, chunk) => trx.insertInto("solves").values(chunk).execute());
    log(`solves: ${solveRows.length} in ${Math.round(performance.now() - t0)} ms`);
    if (database.kind === "postgres") {
      // The visibility map, as autovacuum keeps it on a running site (migration 0015 has it
      // visit score_buckets every few hundred solves): without it the leaderboard's index-only
      // reads would fetch table rows until autovacuum's next round, and the benches would measure
      // a database a few minutes old that no deployment keeps for longer.
      await sql`vacuum`.execute(db);
    }
    await refreshStatistics(db, { full: true });
    return { users, submissions, solves: solveRows.length, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await db.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error("DATABASE_URL is not set (sqlite:/path/file.db or postgres://…)");
    process.exit(2);
  }
  const r = await seed({
    databaseUrl,
    users: process.argv[2] ? Number(process.argv[2]) : undefined,
    submissions: process.argv[3] ? Number(process.argv[3]) : undefined,
    log: (l) => console.log(l),
  });
  console.log(`seeded ${r.users} users, ${r.submissions} submissions, ${r.solves} solves in ${r.seconds.toFixed(1)} s`);
}
