import Database from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { withStatementCache } from "./statement-cache.ts";

describe("SQLite statement cache", () => {
  const open: Database.Database[] = [];
  afterEach(() => open.splice(0).forEach((c) => c.open && c.close()));
  const conn = () => {
    const c = new Database(":memory:");
    open.push(c);
    c.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
    c.exec("INSERT INTO t (name) VALUES ('a'), ('b'), ('c')");
    return c;
  };

  it("hands the same SQL its compiled statement back, and new SQL a new one", () => {
    const db = withStatementCache(conn());
    const a = db.prepare("SELECT name FROM t WHERE id = ?");
    expect(db.prepare("SELECT name FROM t WHERE id = ?")).toBe(a);
    expect(db.prepare("SELECT id FROM t WHERE name = ?")).not.toBe(a);
    expect(db.kept()).toBe(2);
  });

  it("gives a fresh statement while the kept one is iterating, and both read the right rows", () => {
    const db = withStatementCache(conn());
    const text = "SELECT name FROM t WHERE id >= ? ORDER BY id";
    const iter = db.prepare(text).iterate([1]);
    expect(iter.next().value).toEqual({ name: "a" });
    const other = db.prepare(text);
    expect(other.all([2])).toEqual([{ name: "b" }, { name: "c" }]);
    expect([...iter]).toEqual([{ name: "b" }, { name: "c" }]);
  });

  it("keeps at most `max` statements, the least recently used going first", () => {
    const db = withStatementCache(conn(), 2);
    const one = db.prepare("SELECT 1");
    db.prepare("SELECT 2");
    expect(db.prepare("SELECT 1")).toBe(one); // used again: now the newest
    db.prepare("SELECT 3"); // "SELECT 2" goes
    expect(db.kept()).toBe(2);
    expect(db.prepare("SELECT 1")).toBe(one);
  });

  it("a kept statement reads the schema as it is after a change (through Kysely, as the platform uses it)", async () => {
    const c = conn();
    const db = new Kysely<{ t: { id: number; name: string } }>({ dialect: new SqliteDialect({ database: withStatementCache(c) }) });
    const read = () => sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(db);
    expect((await read()).rows[0]!.n).toBe(3);
    c.exec("ALTER TABLE t ADD COLUMN extra TEXT");
    c.exec("INSERT INTO t (name) VALUES ('d')");
    expect((await read()).rows[0]!.n).toBe(4);
    await db.destroy();
    expect(c.open).toBe(false);
  });
});
