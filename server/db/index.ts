// Opens the database the configuration names (SQLite file by default, PostgreSQL for a
// postgres:// URL) and brings its schema up to date.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import type { Config } from "#server/config.ts";
import { migrationProvider } from "./migrations.ts";
import { withStatementCache } from "./statement-cache.ts";
import { refreshStatistics } from "./statistics.ts";
import type { Database } from "./schema.ts";

export type Db = Kysely<Database>;

export async function openDatabase(database: Config["database"]): Promise<Db> {
  const db = database.kind === "postgres" ? await postgres(database.url) : await sqlite(database.file);
  await migrate(db);
  // After migrations (and whatever bulk load came before this start): planner statistics.
  await refreshStatistics(db);
  return db;
}

async function sqlite(file: string): Promise<Db> {
  const { default: SQLite } = await import("better-sqlite3");
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const conn = new SQLite(file);
  conn.pragma("journal_mode = WAL");
  conn.pragma("foreign_keys = ON");
  conn.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(conn) }) });
}

async function postgres(url: string): Promise<Db> {
  const pg = await import("pg");
  // bigint columns hold epoch seconds: read them as numbers, as SQLite does.
  pg.default.types.setTypeParser(20, (v: string) => Number(v));
  const pool = new pg.default.Pool({ connectionString: url, max: 10 });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export async function migrate(db: Db): Promise<void> {
  // Unordered: a migration merged from a branch can sort before one a database already ran (0017
  // landed after 0018-0020 had run on some); each of ours adds its own tables, columns and
  // triggers, so running the missing one late is what its author meant. Without this Kysely
  // refuses to start on such a database.
  const { error, results } = await new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true }).migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
