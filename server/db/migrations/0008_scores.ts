// Scores kept as solves happen, so reading a leaderboard, a rank, the catalogue's solve counts
// or the home figures never aggregates `solves` (before, a request took a second at 100,000
// players because every read summed every solve; docs/decisions/012-scores-kept-by-triggers.md).
//
// Database triggers do the upkeep, in the same transaction as the change to `solves`, for every
// writer alike: grading's insert, fixtures and the seeding bench, a deleted account's cascade, and
// any later change to a solve's points. The solve row's own `points` is what counts.
//
//   score_buckets   one row per user and period bucket: all_time (start 0), the UTC month, the
//                   ISO week (from Monday) and the UTC day a solve falls in, with points, solves,
//                   seconds and the last solve's time. The board index orders a bucket exactly as
//                   the leaderboard does: points desc, last solve first, then lower(username).
//   score_levels    per bucket, how many users hold each points total (> 0): a dense rank is
//                   1 + the levels above, the board's size their sum, each an index range of a
//                   few hundred rows at most.
//   challenge_solves  solves per challenge (the catalogue's count).
//   score_counters  'users', 'solves' (the home figures) and 'changes', bumped by every change a
//                   public read can show (solves, users, challenges, hidden challenges): the public
//                   read cache (server/core/public-cache.ts) compares it to know it is stale.
//
// The bucket starts are the same calendar rule as periodStart in server/core/scoring.ts (tested
// against each other in tests/integration/scores.test.ts). A disabled account has no buckets
// (0021). `rebuildScores` recomputes everything from `solves`, `users` and `disabled_users`: the
// backfill here, and whatever bulk loader wants to check itself.
import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

export const SCORE_PERIODS = ["all_time", "this_month", "this_week", "today"] as const;

export type Dialect = "sqlite" | "postgres";
export const dialectOf = (db: Kysely<any>): Dialect => (db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite");

/** SQL for the start (epoch seconds, UTC) of the bucket of `period` holding time `t`. */
export function bucketStart(d: Dialect, period: (typeof SCORE_PERIODS)[number], t: string): string {
  switch (period) {
    case "all_time":
      return "0";
    case "today":
      return `(${t} - ${t} % 86400)`;
    case "this_week":
      // Day 0 (1970-01-01) was a Thursday, 3 days after a Monday.
      return `((${t} / 86400 - (${t} / 86400 + 3) % 7) * 86400)`;
    case "this_month":
      return d === "sqlite"
        ? `cast(strftime('%s', ${t}, 'unixepoch', 'start of month') as integer)`
        : `cast(extract(epoch from date_trunc('month', to_timestamp(${t}) at time zone 'UTC')) as bigint)`;
  }
}

/** One solve added to its four buckets (r: the solves row, `new`); `onBoard`: a further condition
 *  on its user `u` (0021: not a disabled account). */
function addSolve(d: Dialect, r: string, onBoard = ""): string[] {
  const max = d === "sqlite" ? "max" : "greatest";
  return SCORE_PERIODS.map(
    (p) => `insert into score_buckets (period, start, user_id, username, name_key, points, solves, seconds, last_at)
      select '${p}', ${bucketStart(d, p, `${r}.solved_at`)}, u.id, u.username, lower(u.username), ${r}.points, 1, ${r}.solve_seconds, ${r}.solved_at
      from users u where u.id = ${r}.user_id${onBoard && ` and ${onBoard}`}
      on conflict (period, start, user_id) do update set
        points = score_buckets.points + excluded.points, solves = score_buckets.solves + 1,
        seconds = score_buckets.seconds + excluded.seconds, last_at = ${max}(score_buckets.last_at, excluded.last_at)`,
  );
}

/** The four buckets of a solve (r: `old` or `new`) recomputed from `solves` (a user has few). */
function recomputeBuckets(d: Dialect, r: string, onBoard = ""): string[] {
  return SCORE_PERIODS.flatMap((p) => {
    const start = bucketStart(d, p, `${r}.solved_at`);
    return [
      `delete from score_buckets where period = '${p}' and start = ${start} and user_id = ${r}.user_id`,
      // Nothing for an account being deleted (its buckets go with it).
      `insert into score_buckets (period, start, user_id, username, name_key, points, solves, seconds, last_at)
        select '${p}', ${start}, u.id, u.username, lower(u.username), sum(s.points), count(*), sum(s.solve_seconds), max(s.solved_at)
        from users u join solves s on s.user_id = u.id
        where u.id = ${r}.user_id and ${bucketStart(d, p, "s.solved_at")} = ${start}${onBoard && ` and ${onBoard}`}
        group by u.id, u.username`,
    ];
  });
}

export const bump = (names: string[], by: number) =>
  `update score_counters set n = n + (case when name = 'changes' then 1 else ${by} end) where name in (${["changes", ...names].map((n) => `'${n}'`).join(", ")})`;
const countSolve = (r: string) =>
  `insert into challenge_solves (challenge_id, solves) values (${r}.challenge_id, 1)
    on conflict (challenge_id) do update set solves = challenge_solves.solves + 1`;
const uncountSolve = (r: string) => `update challenge_solves set solves = solves - 1 where challenge_id = ${r}.challenge_id`;
const levelUp = (r: string) =>
  `insert into score_levels (period, start, points, users) values (${r}.period, ${r}.start, ${r}.points, 1)
    on conflict (period, start, points) do update set users = score_levels.users + 1`;
const levelDown = (r: string) => [
  `update score_levels set users = users - 1 where period = ${r}.period and start = ${r}.start and points = ${r}.points`,
  `delete from score_levels where period = ${r}.period and start = ${r}.start and points = ${r}.points and users <= 0`,
];

export interface Rule {
  table: string;
  event: "insert" | "update" | "delete";
  /** Only for updates of these columns. */
  of?: string[];
  when?: string;
  steps: string[];
}

/** The upkeep of the buckets as solves change (the first three rules, scores_solves_*_0..2). */
export function solvesRules(d: Dialect, onBoard = ""): Rule[] {
  return [
    { table: "solves", event: "insert", steps: [...addSolve(d, "new", onBoard), countSolve("new"), bump(["solves"], 1)] },
    { table: "solves", event: "delete", steps: [...recomputeBuckets(d, "old", onBoard), uncountSolve("old"), bump(["solves"], -1)] },
    {
      table: "solves",
      event: "update",
      steps: [...recomputeBuckets(d, "old", onBoard), ...recomputeBuckets(d, "new", onBoard), uncountSolve("old"), countSolve("new"), bump([], 0)],
    },
  ];
}

function rules(d: Dialect): Rule[] {
  return [
    ...solvesRules(d),
    { table: "score_buckets", event: "insert", when: "new.points > 0", steps: [levelUp("new")] },
    { table: "score_buckets", event: "delete", when: "old.points > 0", steps: levelDown("old") },
    { table: "score_buckets", event: "update", of: ["points"], when: "old.points <> new.points and old.points > 0", steps: levelDown("old") },
    { table: "score_buckets", event: "update", of: ["points"], when: "old.points <> new.points and new.points > 0", steps: [levelUp("new")] },
    { table: "users", event: "insert", steps: [bump(["users"], 1)] },
    { table: "users", event: "delete", steps: [bump(["users"], -1)] },
    {
      table: "users",
      event: "update",
      of: ["username"],
      steps: [`update score_buckets set username = new.username, name_key = lower(new.username) where user_id = new.id`, bump([], 0)],
    },
    ...(["insert", "update", "delete"] as const).map((event) => ({ table: "challenges", event, steps: [bump([], 0)] })),
    ...(["insert", "delete"] as const).map((event) => ({ table: "hidden_challenges", event, steps: [bump([], 0)] })),
  ];
}

async function createTriggers(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  for (const [i, r] of rules(d).entries()) await createTrigger(db, `scores_${r.table}_${r.event}_${i}`, r);
}

/** One rule as a trigger of the database's dialect. */
export async function createTrigger(db: Kysely<any>, name: string, r: Rule): Promise<void> {
  const on = `after ${r.event}${r.of ? ` of ${r.of.join(", ")}` : ""} on ${r.table}`;
  if (dialectOf(db) === "sqlite") {
    await sql
      .raw(`create trigger ${name} ${on} for each row${r.when ? ` when ${r.when}` : ""} begin ${r.steps.map((s) => `${s};`).join("\n")} end`)
      .execute(db);
  } else {
    const body = r.steps.map((s) => `${s};`).join("\n");
    await sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $body$ begin ${r.when ? `if ${r.when} then ${body} end if;` : body} return null; end $body$`,
      )
      .execute(db);
    await sql.raw(`create trigger ${name} ${on} for each row execute function ${name}()`).execute(db);
  }
}

/**
 * Recomputes every score table from `solves` and `users` (same bucket rule as the triggers).
 * Run inside a transaction by the caller when others may write meanwhile.
 */
export async function rebuildScores(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  for (const t of ["score_levels", "score_buckets", "challenge_solves"]) await sql.raw(`delete from ${t}`).execute(db);
  await sql.raw(`delete from score_counters where name in ('users', 'solves')`).execute(db);
  for (const p of SCORE_PERIODS) {
    const start = bucketStart(d, p, "s.solved_at");
    await sql
      .raw(
        `insert into score_buckets (period, start, user_id, username, name_key, points, solves, seconds, last_at)
         select '${p}', ${start}, u.id, u.username, lower(u.username), sum(s.points), count(*), sum(s.solve_seconds), max(s.solved_at)
         from solves s join users u on u.id = s.user_id
         where not exists (select 1 from disabled_users x where x.user_id = u.id)
         group by ${p === "all_time" ? "" : `${start}, `}u.id, u.username`,
      )
      .execute(db);
  }
  // The bucket insert trigger counted the levels already; start them afresh from the buckets.
  await sql.raw(`delete from score_levels`).execute(db);
  await sql
    .raw(
      `insert into score_levels (period, start, points, users)
       select period, start, points, count(*) from score_buckets where points > 0 group by period, start, points`,
    )
    .execute(db);
  await sql.raw(`insert into challenge_solves (challenge_id, solves) select challenge_id, count(*) from solves group by challenge_id`).execute(db);
  await sql.raw(`insert into score_counters (name, n) values ('users', (select count(*) from users)), ('solves', (select count(*) from solves))`).execute(db);
  // 'changes' only ever grows: a cache entry made before the rebuild must not look current.
  await sql.raw(`insert into score_counters (name, n) values ('changes', 1) on conflict (name) do update set n = score_counters.n + 1`).execute(db);
}

export const scores: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("score_buckets")
      .addColumn("period", "text", (c) => c.notNull())
      .addColumn("start", "bigint", (c) => c.notNull())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      // The name as shown and as ordered (ties end by lower(username)), kept by a trigger on users.
      .addColumn("username", "text", (c) => c.notNull())
      .addColumn("name_key", "text", (c) => c.notNull())
      .addColumn("points", "bigint", (c) => c.notNull())
      .addColumn("solves", "bigint", (c) => c.notNull())
      .addColumn("seconds", "bigint", (c) => c.notNull())
      .addColumn("last_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("score_buckets_pk", ["period", "start", "user_id"])
      .execute();
    // The leaderboard's order; name_key in it lets a search filter on the index alone.
    await sql`create index score_buckets_board on score_buckets (period, start, points desc, last_at, name_key)`.execute(db);
    // A user's buckets (renames, deleted accounts' cascade).
    await db.schema.createIndex("score_buckets_user").on("score_buckets").column("user_id").execute();
    await db.schema
      .createTable("score_levels")
      .addColumn("period", "text", (c) => c.notNull())
      .addColumn("start", "bigint", (c) => c.notNull())
      .addColumn("points", "bigint", (c) => c.notNull())
      .addColumn("users", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("score_levels_pk", ["period", "start", "points"])
      .execute();
    await db.schema
      .createTable("challenge_solves")
      .addColumn("challenge_id", "text", (c) => c.primaryKey())
      .addColumn("solves", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("score_counters")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("n", "bigint", (c) => c.notNull())
      .execute();
    // The home figures count approved challenges through an index, not a scan.
    await db.schema.createIndex("challenges_approved").on("challenges").columns(["is_approved", "id"]).execute();
    await rebuildScores(db);
    await createTriggers(db);
  },
};
