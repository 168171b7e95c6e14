// Counts of leaderboard searches kept by triggers, so a search for a word found in thousands of
// names costs its page, not a walk of the board, also the first time it is read after a player
// joins the board.
//
// A search that filters a board's range (1-2 characters, or a word in more names than the trigram
// index is worth asking: server/core/scoring.ts) counts its matches by walking the whole board
// range (~95,000 index rows for the all-time board at 100,000 players: 14 ms of CPU on SQLite,
// ~30 ms of PostgreSQL's). Before, scoring.ts remembered such a count in the process against the
// board's version (0015), which moves whenever a player joins or leaves the board or is renamed,
// so the first read after each of those walked the board again (134-309 ms p95 at 10 connections
// in bench/leaderboard.ts). Now the count is a row here, and the triggers that move the version
// move the count too, in the transaction of the change:
//
//   score_search_counts  per board (period, start) and search (its LIKE pattern, as
//                        server/db/search.ts writes it), how many of the board's players match,
//                        and the board's version the count is at. A join, leave or rename on the
//                        board adds or takes one from each of the board's counts whose pattern
//                        the name matches (name_key LIKE pattern, the same test as the read's) and
//                        moves each count's version on by one, as 0015's triggers move the
//                        board's, on exactly the same row changes. A count is used only while its
//                        version equals the board's: one written by a reader that raced a change
//                        (counted before the change, written after it) stays one behind and is
//                        counted again, never used.
//
// The reader writes a count the first time its search is read on a board (one walk of the board
// per search and board, whichever replica asks), and keeps at most SEARCH_COUNTS_PER_BOARD of a
// board's counts (the oldest go): each join costs a LIKE per count of its board (a few µs each).
import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

/** The counts a board keeps; each join or leave on the board tests its name against each. */
export const SEARCH_COUNTS_PER_BOARD = 200;

const match = (r: "new" | "old") => `(case when ${r}.points > 0 and ${r}.name_key like pattern escape '\\' then 1 else 0 end)`;
/** The same row changes as 0015's board version triggers (JOINS, LEAVES, MOVES there). */
const TRIGGERS: [string, string, string, string][] = [
  ["score_search_counts_insert", "after insert on score_buckets", "new.points > 0", `${match("new")}`],
  ["score_search_counts_delete", "after delete on score_buckets", "old.points > 0", `- ${match("old")}`],
  [
    "score_search_counts_update",
    "after update of points, name_key on score_buckets",
    "(old.points > 0) <> (new.points > 0) or (new.points > 0 and old.name_key <> new.name_key)",
    `${match("new")} - ${match("old")}`,
  ],
];

export const searchCounts0022: Migration = {
  async up(db: Kysely<any>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable("score_search_counts")
      .addColumn("period", "text", (c) => c.notNull())
      .addColumn("start", "bigint", (c) => c.notNull())
      .addColumn("pattern", "text", (c) => c.notNull())
      .addColumn("total", "bigint", (c) => c.notNull())
      .addColumn("version", "bigint", (c) => c.notNull())
      // When the reader counted it (epoch ms): the oldest go past SEARCH_COUNTS_PER_BOARD.
      .addColumn("counted_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("score_search_counts_pk", ["period", "start", "pattern"])
      .execute();
    await db.schema.createIndex("score_search_counts_age").on("score_search_counts").columns(["period", "start", "counted_at"]).execute();
    for (const [name, on, when, delta] of TRIGGERS) {
      const r = on.includes("delete") ? "old" : "new";
      // Each of the board's counts (the primary key's range).
      const step = `update score_search_counts set total = total + ${delta}, version = version + 1 where period = ${r}.period and start = ${r}.start`;
      if (postgres) {
        await sql.raw(`create function ${name}() returns trigger language plpgsql as $body$ begin ${step}; return null; end $body$`).execute(db);
        await sql.raw(`create trigger ${name} ${on} for each row when (${when}) execute function ${name}()`).execute(db);
      } else {
        await sql.raw(`create trigger ${name} ${on} for each row when ${when} begin ${step}; end`).execute(db);
      }
    }
  },
};
