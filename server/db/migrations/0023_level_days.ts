// PostgreSQL: per points level of a board, how many of its players made their last solve on each
// UTC day, so a deep page starts at the day holding its first row instead of skipping the
// level's rows before it one by one.
//
// A board orders its players by points (desc), then the last solve's time, then lower(username)
// (0008). A deep page starts inside the points level holding its first row (server/core/scoring.ts
// seeks there through score_levels) and skips the level's rows before it in the board index: at
// 100,000 players the lowest all-time level holds ~4,300 and the lowest monthly one ~10,000, an
// index-only walk of 1.5-3.2 ms of PostgreSQL's CPU per page (27-42 ms p95 at 10 connections in
// bench/leaderboard.ts). With the level's players counted per day of their last solve, the read
// skips whole days by arithmetic and walks only the rows of the day it starts in (the bench's
// players solve over 90 days: ~50 rows, where it was thousands).
//
//   score_level_days   per board (period, start), points total (> 0) and day (last_at rounded
//                      down to the UTC day, epoch seconds): how many players. Kept by triggers on
//                      score_buckets, in the transaction of the change, like score_levels (0008):
//                      a row entering, leaving or moving (points or last solve's day) takes one
//                      from its old (points, day) and adds one to its new.
//
// SQLite skips a deep page's rows within the index at ~0.1 µs each and reads the table only for the
// page's own rows (0.4 ms for the same page): it keeps its board index alone, without this table.
import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

const day = (r: "new" | "old") => `(${r}.last_at - ${r}.last_at % 86400)`;
const add = (r: "new" | "old") =>
  `insert into score_level_days (period, start, points, day, users) values (${r}.period, ${r}.start, ${r}.points, ${day(r)}, 1)
    on conflict (period, start, points, day) do update set users = score_level_days.users + 1`;
const take = (r: "new" | "old") =>
  `update score_level_days set users = users - 1 where period = ${r}.period and start = ${r}.start and points = ${r}.points and day = ${day(r)};
   delete from score_level_days where period = ${r}.period and start = ${r}.start and points = ${r}.points and day = ${day(r)} and users <= 0`;
const moved = `(old.points <> new.points or ${day("old")} <> ${day("new")})`;

export const levelDays0023: Migration = {
  async up(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await db.schema
      .createTable("score_level_days")
      .addColumn("period", "text", (c) => c.notNull())
      .addColumn("start", "bigint", (c) => c.notNull())
      .addColumn("points", "bigint", (c) => c.notNull())
      .addColumn("day", "bigint", (c) => c.notNull())
      .addColumn("users", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("score_level_days_pk", ["period", "start", "points", "day"])
      .execute();
    await sql`insert into score_level_days (period, start, points, day, users)
      select period, start, points, last_at - last_at % 86400, count(*) from score_buckets where points > 0 group by 1, 2, 3, 4`.execute(db);
    const body = [
      `if tg_op in ('UPDATE', 'DELETE') and old.points > 0 and (tg_op = 'DELETE' or ${moved}) then ${take("old")}; end if;`,
      `if tg_op in ('INSERT', 'UPDATE') and new.points > 0 and (tg_op = 'INSERT' or ${moved}) then ${add("new")}; end if;`,
    ].join("\n");
    await sql.raw(`create function score_level_days_keep() returns trigger language plpgsql as $body$ begin ${body} return null; end $body$`).execute(db);
    await sql
      .raw(
        `create trigger score_level_days_keep after insert or delete or update of points, last_at on score_buckets for each row execute function score_level_days_keep()`,
      )
      .execute(db);
  },
};
