// Two things for the leaderboard's reads at 100,000 players (bench/leaderboard.ts).
//
// 1. score_boards: per bucket (period, start), a version that moves whenever the set of players
//    on that board changes or one of them is renamed: a row of score_buckets reaching or leaving
//    points > 0 (a player's first solve in the period, a deleted account or solve), or a new
//    name_key on a row with points. A solve by a player already on the board, the common case,
//    moves their points and rank but not this version. How many players of a board a search
//    matches depends only on who is on it under which name, so server/core/scoring.ts remembers
//    a search's count against this version instead of counting its matches again after every
//    solve (counting a word found in thousands of names walks the whole board range: 13 ms of
//    CPU at 95,000 players). Kept by triggers on score_buckets, in the transaction of the change,
//    like the other score tables (0008); a bucket without a row is at version 0.
//
// 2. PostgreSQL: the board index covers a page's columns. A deep page starts inside the points
//    level holding its first row (scoring.ts seeks there through score_levels), then skips the
//    rows of that level before it: at 100,000 players the lowest all-time level holds ~4,300.
//    Through score_buckets_board, which held only the order's columns, PostgreSQL fetched each of
//    those rows from the table for the page's name, solves and seconds (a bitmap of the level's
//    ~3,800 table pages, then a sort: 9.5 ms with all of it in memory, 19 ms with part on disk).
//    With those three columns INCLUDEd it is an index-only scan of ~65 index pages (1.0 ms); a
//    search of the board's range still counts from the index alone.
//
//    An index-only scan skips the table only for pages the visibility map marks all-visible, and
//    every solve clears that mark on the pages of the bucket rows it writes. With the default
//    autovacuum thresholds (20 % of the table's rows changed) a busy site would go hours between
//    vacuums of score_buckets, and its index-only scans would drift back to table reads. So
//    autovacuum visits score_buckets after a fixed 2,000 changed or inserted rows instead (a few
//    hundred solves); such a vacuum reads only the pages not marked all-visible, and PostgreSQL
//    skips its pass over the indexes while few pages hold dead rows.
//
//    SQLite skips a deep page's rows within the index and reads the table only for the page's
//    own rows (0.4 ms for the same page), so its board index stays as it is.
import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

/** When a row change of score_buckets changes who is on its board, or under which name. */
const JOINS = "new.points > 0";
const LEAVES = "old.points > 0";
const MOVES = "(old.points > 0) <> (new.points > 0) or (new.points > 0 and old.name_key <> new.name_key)";

export const boardVersions0015: Migration = {
  async up(db: Kysely<any>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable("score_boards")
      .addColumn("period", "text", (c) => c.notNull())
      .addColumn("start", "bigint", (c) => c.notNull())
      .addColumn("version", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("score_boards_pk", ["period", "start"])
      .execute();
    const bump = (r: "new" | "old") =>
      `insert into score_boards (period, start, version) values (${r}.period, ${r}.start, 1)
        on conflict (period, start) do update set version = score_boards.version + 1`;
    const triggers: [string, string, string, "new" | "old"][] = [
      ["score_boards_insert", "after insert on score_buckets", JOINS, "new"],
      ["score_boards_delete", "after delete on score_buckets", LEAVES, "old"],
      ["score_boards_update", "after update of points, name_key on score_buckets", MOVES, "new"],
    ];
    for (const [name, on, when, r] of triggers) {
      if (postgres) {
        await sql.raw(`create function ${name}() returns trigger language plpgsql as $body$ begin ${bump(r)}; return null; end $body$`).execute(db);
        await sql.raw(`create trigger ${name} ${on} for each row when (${when}) execute function ${name}()`).execute(db);
      } else {
        await sql.raw(`create trigger ${name} ${on} for each row when ${when} begin ${bump(r)}; end`).execute(db);
      }
    }
    if (!postgres) return;
    await sql`create index score_buckets_board_covering on score_buckets (period, start, points desc, last_at, name_key) include (username, solves, seconds)`.execute(
      db,
    );
    await sql`drop index score_buckets_board`.execute(db);
    await sql`alter index score_buckets_board_covering rename to score_buckets_board`.execute(db);
    await sql`alter table score_buckets set (
      autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000,
      autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 2000)`.execute(db);
  },
};
