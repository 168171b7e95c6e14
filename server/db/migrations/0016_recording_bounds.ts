// Bounds on what a player can make the platform store and compute
// (docs/decisions/016-per-user-bounds.md).
//
// 1. Recordings live in RECORDINGS_DIR (DATA_DIR/recordings unless configured), apart from the
//    database: a row's `path` becomes relative to that folder ("<user id>/<id>.cast"; it was
//    "recordings/<user id>/<id>.cast", relative to DATA_DIR, and the files stay where they are).
// 2. The commands typed in a recording are extracted once, when it ends, off the main thread, and
//    stored here: `commands` (a JSON array of strings, null until extracted: recordings of older
//    deployments are extracted on first read or by the worker's round), `commands_cut` (1 when
//    a bound stopped the extraction). The partial index finds the rows still to do.
// 3. recording_usage: the bytes and files of all recordings in one row ('all'), kept by triggers
//    in the transaction of each change, so /metrics reads one row instead of summing the table
//    (a sum over every recording on each scrape would stall SQLite's synchronous driver).
import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

export const recordingBounds0016: Migration = {
  async up(db: Kysely<any>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema.alterTable("recordings").addColumn("commands", "text").execute();
    await db.schema
      .alterTable("recordings")
      .addColumn("commands_cut", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update recordings set path = substr(path, 12) where path like 'recordings/%'`.execute(db);
    await db.schema.createIndex("recordings_pending").on("recordings").column("started_at").where(sql.ref("commands"), "is", null).execute();

    await db.schema
      .createTable("recording_usage")
      .addColumn("scope", "text", (c) => c.primaryKey())
      .addColumn("bytes", "bigint", (c) => c.notNull())
      .addColumn("files", "bigint", (c) => c.notNull())
      .execute();
    await sql`insert into recording_usage (scope, bytes, files) select 'all', coalesce(sum(bytes), 0), count(*) from recordings`.execute(db);
    const triggers: [string, string, string][] = [
      ["recording_usage_insert", "after insert on recordings", "bytes = bytes + new.bytes, files = files + 1"],
      ["recording_usage_delete", "after delete on recordings", "bytes = bytes - old.bytes, files = files - 1"],
      ["recording_usage_update", "after update of bytes on recordings", "bytes = bytes + new.bytes - old.bytes"],
    ];
    for (const [name, on, change] of triggers) {
      const body = `update recording_usage set ${change} where scope = 'all'`;
      if (postgres) {
        await sql.raw(`create function ${name}() returns trigger language plpgsql as $body$ begin ${body}; return null; end $body$`).execute(db);
        await sql.raw(`create trigger ${name} ${on} for each row execute function ${name}()`).execute(db);
      } else {
        await sql.raw(`create trigger ${name} ${on} for each row begin ${body}; end`).execute(db);
      }
    }
  },
};
