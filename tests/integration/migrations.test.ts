// A database that ran later migrations before an earlier one existed (a migration merged from a
// branch: 0017 landed after 0018-0020 had run on some) is brought up to date, not refused.
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, sql } from "kysely";
import { expect, it } from "vitest";
import { migrate } from "#server/db/index.ts";
import { migrations } from "#server/db/migrations.ts";

it("runs a migration that sorts before ones the database already ran", async () => {
  const conn = new SQLite(":memory:");
  conn.pragma("foreign_keys = ON");
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: conn }) });
  try {
    const late = "0017_step_up";
    const without = Object.fromEntries(Object.entries(migrations).filter(([name]) => name !== late));
    const first = await new Migrator({ db, provider: { getMigrations: async () => without } }).migrateToLatest();
    expect(first.error).toBeUndefined();
    await migrate(db);
    const ran = (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name);
    expect(ran).toEqual(Object.keys(migrations).sort());
  } finally {
    await db.destroy();
  }
});
