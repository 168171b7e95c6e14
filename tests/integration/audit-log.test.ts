// The audit log keyed by id, not by name (decision 018; migration 0018), on
// SQLite and PostgreSQL: usernames equal to a challenge id (as loaded at run time) or a staff word
// are refused; an account with such a name (made before the rule) gets none of the entries about
// the challenge in its data export and blanks none by its deletion; a failed sign-in keeps the
// account it named or a keyed hash of what was typed, never the text; the console filters by
// user id and shows the names of today, by id; rows written before 0018 are typed and lose their
// names when it runs.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrations } from "#server/db/migrations.ts";
import { CHALLENGES_DIR } from "#server/library/challenges.ts";
import { challengesFixture, createTestPlatform, DATABASES, freshIp, type TestPlatform, type TestUser } from "../support/platform.ts";
import { createDatabase } from "../support/postgres.ts";
import { expectError } from "./assertions.ts";

const NGINX = "nginx-broken-config";
/** Added to the content while the platform runs, then reloaded by an admin. */
const LATER = "disk-full-deleted-log";
const TAKEN = "Username or email already exists";

describe.each(DATABASES)("the audit log keyed by id on %s", (kind) => {
  let t: TestPlatform;
  let content: string;
  let admin: string;
  beforeAll(async () => {
    content = challengesFixture([NGINX]);
    t = await createTestPlatform(kind, { challengesDir: content, env: { RUNTIME: "none" } });
    const a = await t.registerVerified();
    await t.platform.accounts.setAdmin(a.username, true);
    admin = (await t.login(a)).access_token;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(content, { recursive: true, force: true });
  });

  const idOf = async (username: string) => (await t.platform.db.selectFrom("users").select("id").where("username", "=", username).executeTakeFirstOrThrow()).id;
  const register = (username: string) =>
    t.call("POST", "/auth/register", {
      body: { username, email: `${username.toLowerCase()}-${kind}@example.test`, password: "a long password here" },
      ip: freshIp(),
    });
  const entries = async (query: string) => {
    const res = await t.call("GET", `/admin/audit?${query}`, { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.entries as any[];
  };
  const exported = async (query: string) => {
    const res = await t.platform.api.handle(new Request(`http://test/api/v1/admin/audit/export?${query}`, { headers: { authorization: `Bearer ${admin}` } }), {
      clientIp: "203.0.113.1",
    });
    expect(res.status).toBe(200);
    return res.text();
  };

  it("a username equal to a challenge id or a staff word is refused, in any case, at registration and Add User", async () => {
    for (const name of [NGINX, NGINX.toUpperCase(), "admin", "Root", "SUPPORT", "settings"]) expectError(await register(name), 409, TAKEN);
    expectError(
      await t.call("POST", "/admin/users", { token: admin, body: { username: NGINX, email: `made-${kind}@example.test`, password: "a long password" } }),
      409,
      TAKEN,
    );
    expect(
      await t.platform.db.selectFrom("users").select("id").where("username", "in", [NGINX, NGINX.toUpperCase(), "admin", "Root", "SUPPORT"]).execute(),
    ).toEqual([]);
    // Near names are fine.
    expect((await register(`${NGINX.slice(0, 20)}-fan`)).status).toBe(201);
  });

  it("challenge ids are known at run time: one added and reloaded is refused from then on", async () => {
    expect(t.platform.accounts.usernameReserved(LATER)).toBe(false);
    cpSync(join(CHALLENGES_DIR, LATER), join(content, LATER), { recursive: true });
    const reload = await t.call("POST", "/admin/challenges/reload", { token: admin });
    expect(reload.body.added).toEqual([LATER]);
    expectError(await register(LATER), 409, TAKEN);
  });

  it("an account named after a challenge (made before the rule) exports none of the entries about it, and its deletion blanks none", async () => {
    // Entries about the challenge, by someone else: an admin hides and shows it.
    for (const hidden of [true, false])
      expect((await t.call("PUT", `/admin/challenges/${NGINX}/visibility`, { token: admin, body: { hidden } })).status).toBe(200);
    const u: TestUser = await t.registerVerified();
    await t.platform.db.updateTable("users").set({ username: NGINX }).where("username", "=", u.username).execute();
    const { access_token: token } = await t.login({ username: NGINX, password: u.password });
    const mine = (await t.call("GET", "/users/me/export", { token })).body;
    expect(mine.audit_entries.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(["auth.login"]));
    expect(mine.audit_entries.filter((e: { action: string }) => e.action.startsWith("admin.challenge_"))).toEqual([]);
    expect((await t.call("DELETE", "/users/me", { token, body: { current_password: u.password } })).status).toBe(200);
    const about = await entries("action=admin.challenge_hide");
    expect(about.length).toBeGreaterThan(0);
    for (const e of about) expect(e).toMatchObject({ target_type: "challenge", target_id: NGINX, target: NGINX });
  });

  it("a failed sign-in keeps the account it named, or a keyed hash of what was typed, never the text", async () => {
    const typed = "Tr0ub4dor&3-typed-in-the-name-field";
    for (const attempt of [typed, `  ${typed.toUpperCase()} `, "someone-else-entirely"]) {
      expectError(
        await t.call("POST", "/auth/login", { body: { username_or_email: attempt, password: "whatever it was" }, ip: freshIp() }),
        401,
        "Incorrect username or password",
      );
    }
    const failed = (await entries("action=auth.login_failed")).slice(0, 3);
    for (const e of failed)
      expect(e).toMatchObject({
        actor: null,
        actor_id: null,
        target_type: null,
        target: null,
        detail: { reason: "password", typed_hash: expect.stringMatching(/^[0-9a-f]{32}$/) },
      });
    // The same text (any case, any spaces around it) hashes alike; another does not.
    const counts = new Map<string, number>();
    for (const e of failed) counts.set(e.detail.typed_hash, (counts.get(e.detail.typed_hash) ?? 0) + 1);
    expect([...counts.values()].sort()).toEqual([1, 2]);
    // Not in the list, not in the export, not in the database.
    expect(JSON.stringify(await entries("action=auth.login_failed"))).not.toMatch(/Tr0ub4dor/i);
    expect(await exported("action=auth.login_failed")).not.toMatch(/Tr0ub4dor/i);
    const rows = await t.platform.db.selectFrom("audit_log").selectAll().where("action", "=", "auth.login_failed").execute();
    expect(JSON.stringify(rows)).not.toMatch(/Tr0ub4dor/i);
    // Not filterable as an "actor" either: a name is looked up as an account.
    expect(await entries(`actor=${encodeURIComponent(typed)}`)).toEqual([]);

    // A wrong password for a real account: the entry is about that account.
    const u = await t.registerVerified();
    expectError(await t.call("POST", "/auth/login", { body: { username_or_email: u.username, password: "not the password" }, ip: freshIp() }), 401);
    const [wrong] = await entries(`action=auth.login_failed&user=${await idOf(u.username)}`);
    expect(wrong).toMatchObject({ actor: u.username, target_type: "user", target: u.username, detail: { reason: "password" } });
    expect(wrong.detail).not.toHaveProperty("typed_hash");
  });

  it("the console filters by user id (by or about the account) and reads names by id; a deleted account's entries keep their ids, not its name", async () => {
    const u = await t.register();
    const id = await idOf(u.username);
    expect((await t.call("POST", `/admin/users/${id}/verify`, { token: admin })).status).toBe(200);
    const { access_token: token } = await t.login(u);
    const about = await entries(`user=${id}`);
    expect(about.map((e) => e.action).sort()).toEqual(["admin.user_verify", "auth.login"]);
    expect(about.find((e) => e.action === "admin.user_verify")).toMatchObject({ target_type: "user", target_id: id, target: u.username });
    expect((await entries(`actor=${u.username.toUpperCase()}`)).map((e) => e.action)).toEqual(["auth.login"]);
    expect((await exported(`user=${id}`)).trim().split("\n")).toHaveLength(2);
    expectError(await t.call("GET", "/admin/audit?user=not-an-id", { token: admin }), 400, "user: is not a user id");

    expect((await t.call("DELETE", "/users/me", { token, body: { current_password: u.password } })).status).toBe(200);
    const after = await entries(`user=${id}`);
    expect(after.map((e) => e.action).sort()).toEqual(["admin.user_verify", "auth.login"]);
    for (const e of after) expect(e.actor === null || e.actor_id !== id).toBe(true);
    expect(after.find((e) => e.action === "admin.user_verify")).toMatchObject({ target_id: id, target: null });
    expect(JSON.stringify(after)).not.toContain(u.username);
  });
});

describe.each(DATABASES)("migration 0018 on %s", (kind) => {
  let db: Kysely<any>;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "faultline-0018-"));
    db =
      kind === "sqlite"
        ? new Kysely({ dialect: new SqliteDialect({ database: new SQLite(join(dir, "old.db")) }) })
        : new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: await createDatabase(inject("postgresUrl")), max: 2 }) }) });
  });
  afterAll(async () => {
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const migrateTo = async (before: string | null) => {
    const provider = { getMigrations: async () => Object.fromEntries(Object.entries(migrations).filter(([name]) => before === null || name < before)) };
    const { error } = await new Migrator({ db, provider }).migrateToLatest();
    if (error) throw error;
  };

  it("types the old rows from their action, resolves usernames to ids, and drops the names and typed text", async () => {
    await migrateTo("0018");
    const user = (id: string, username: string) => ({ id, username, email: `${username}@example.test`, created_at: 1, updated_at: 1 });
    await db
      .insertInto("users")
      .values([user("11111111-1111-4111-8111-111111111111", "Alice"), user("22222222-2222-4222-8222-222222222222", "bob")])
      .execute();
    const row = (id: string, action: string, actor_id: string | null, actor_name: string | null, target: string | null) => ({
      id,
      at: 1,
      actor_id,
      actor_name,
      action,
      target,
      ip: "192.0.2.1",
      detail: null,
    });
    await db
      .insertInto("audit_log")
      .values([
        row("a1", "deployment.start", "22222222-2222-4222-8222-222222222222", "bob", NGINX),
        row("a2", "admin.user_verify", "22222222-2222-4222-8222-222222222222", "bob", "alice"),
        row("a3", "auth.login_failed", null, "hunter2-typed-as-a-name", null),
        row("a4", "recording.publish", "11111111-1111-4111-8111-111111111111", "Alice", "rec-1"),
        row("a5", "admin.user_disable", "22222222-2222-4222-8222-222222222222", "bob", "gone-since"),
        row("a6", "admin.settings", "22222222-2222-4222-8222-222222222222", "bob", null),
      ])
      .execute();
    await migrateTo(null);
    const rows = await db.selectFrom("audit_log").selectAll().orderBy("id").execute();
    expect(rows.map((r) => [r.id, r.target_type, r.target_id])).toEqual([
      ["a1", "challenge", NGINX],
      ["a2", "user", "11111111-1111-4111-8111-111111111111"],
      ["a3", null, null],
      ["a4", "recording", "rec-1"],
      ["a5", "user", null],
      ["a6", null, null],
    ]);
    for (const r of rows) {
      expect(r).not.toHaveProperty("actor_name");
      expect(r).not.toHaveProperty("target");
    }
    expect(JSON.stringify(rows)).not.toContain("hunter2");
    // The checkouts table and its one-open-per-user rule.
    const checkout = (session_id: string, status: string) => ({
      session_id,
      user_id: "22222222-2222-4222-8222-222222222222",
      status,
      created_at: 1,
      expires_at: 2,
    });
    await db
      .insertInto("billing_checkouts")
      .values([checkout("cs_1", "open"), checkout("cs_2", "expired"), checkout("cs_3", "expired")])
      .execute();
    await expect(db.insertInto("billing_checkouts").values(checkout("cs_4", "open")).execute()).rejects.toThrow(/unique|duplicate/i);
  });
});
