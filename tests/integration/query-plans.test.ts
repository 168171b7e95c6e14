// No full scan on the hot read paths (issue 12), on SQLite and PostgreSQL: a few thousand
// players and their submissions seeded by the bench's seeder (bench/seed.ts, statistics
// refreshed as at start), then every query the leaderboard (each period: first page, a deep
// page, a search), a rank (userStats), the home figures, the catalogue and the public cache's
// change check really send is captured from Kysely's log and explained with its own parameters.
// SQLite: no "SCAN <table>" (a table walked row by row); PostgreSQL: no Seq Scan on a table
// that grows with players. The old aggregate scanned `solves` on every one of these reads.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { type CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from "kysely";
import SQLite from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { seed } from "../../bench/seed.ts";
import { createCatalogue } from "../../server/core/catalogue.ts";
import { createPublicCache } from "../../server/core/public-cache.ts";
import { createScoring } from "../../server/core/scoring.ts";
import type { Database } from "../../server/db/schema.ts";
import { CHALLENGES_DIR, loadLibrary } from "../../server/runtime/challenges.ts";
import { PERIODS } from "../../shared/contract/index.ts";
import { DATABASES, type DbKind } from "../support/platform.ts";
import { createDatabase } from "../support/postgres.ts";

/** Tables whose size grows with players and their play: never read whole. */
const LARGE = ["users", "solves", "submissions", "deployments", "score_buckets"];

describe.each(DATABASES)("query plans on %s", (kind: DbKind) => {
  let dir: string;
  let url: string;
  let db: Kysely<Database>;
  let explain: (q: CompiledQuery) => Promise<string[]>;
  let close: () => Promise<void>;
  const captured: CompiledQuery[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "faultline-plans-"));
    url = kind === "sqlite" ? `sqlite:${join(dir, "plans.db")}` : await createDatabase(inject("postgresUrl"));
    await seed({ databaseUrl: url, users: 3000, submissions: 30_000 });
    const log = (e: { level: string; query: CompiledQuery }) => void (e.level === "query" && captured.push(e.query));
    if (kind === "sqlite") {
      const conn = new SQLite(join(dir, "plans.db"));
      db = new Kysely<Database>({ dialect: new SqliteDialect({ database: conn }), log });
      explain = async (q) => conn.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])).map((r) => (r as { detail: string }).detail);
      close = async () => void conn.close();
    } else {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
      explain = async (q) => (await pool.query(`explain ${q.sql}`, q.parameters as unknown[])).rows.map((r) => String(r["QUERY PLAN"]));
      close = async () => {}; // db.destroy() ends the pool
    }
  }, 240_000);
  afterAll(async () => {
    await db?.destroy();
    await close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it("leaderboard, rank, home figures, catalogue and the cache check read through indexes only", async () => {
    const scoring = createScoring({ db });
    const { challenges } = loadLibrary(CHALLENGES_DIR);
    const catalogue = createCatalogue({ db, challenges });
    const cache = createPublicCache({ db, freshSeconds: 300 });
    await catalogue.sync();
    const someone = await db.selectFrom("score_buckets").select("user_id").where("period", "=", "all_time").orderBy("points", "desc").limit(1).executeTakeFirstOrThrow();
    captured.length = 0;
    for (const period of PERIODS) {
      const first = await scoring.leaderboard({ period });
      expect(first.total, period).toBeGreaterThan(0);
      await scoring.leaderboard({ period, page: Math.max(1, Math.ceil(first.total / 15)) });
      await scoring.leaderboard({ period, page: 2, search: "amber" });
    }
    await scoring.userStats(someone.user_id);
    await scoring.homeStats();
    await catalogue.list({});
    await catalogue.list({ search: "nginx", order_by: "points" });
    await catalogue.get(challenges[0]!.id);
    await cache.get("x", async () => 1);
    expect(captured.length).toBeGreaterThan(20);

    const offenders: string[] = [];
    for (const q of captured) {
      const plan = await explain(q);
      const bad =
        kind === "sqlite"
          ? plan.filter((l) => /^SCAN \w+( AS \w+)?$/.test(l.trim()) || /^SCAN (\w+ AS )?(\w+) USING (?!.*INDEX)/.test(l.trim()))
          : plan.filter((l) => LARGE.some((t) => new RegExp(`Seq Scan on ${t}\\b`).test(l)));
      if (bad.length) offenders.push(`${q.sql}\n  ${plan.join("\n  ")}`);
    }
    expect(offenders, offenders.join("\n\n")).toEqual([]);
  });
});
