// What one player can make the platform keep and compute
// (docs/decisions/016-per-user-bounds.md), on SQLite and PostgreSQL, through the recorder every
// shell goes through (server/gateway/exec-bridge.ts calls `begin` for each): quotas per
// deployment and per user (the oldest private recordings make room, published ones stay, an open
// shell counts whole), recorded shells per minute, the free-space floor; the commands extracted
// once when a shell ends and the debrief reading the stored list (older recordings extracted on
// first read, an open shell's list so far, at most 2,000); the bytes in /metrics; migration 0016
// moving the rows' paths; the sign-up notice capped per address and the outbox bounded. The
// free-space floor and the answers kept: bounded-writes.test.ts. (This file imports only what
// existed before these bounds, so each test fails on that code by its assertion.)
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ShellRecording } from "#server/core/recordings/recorder.ts";
import { nowSeconds } from "#server/db/index.ts";
import { migrationProvider } from "#server/db/migrations.ts";
import { challengesFixture, createTestPlatform, DATABASES, freshIp, type TestPlatform } from "../support/platform.ts";
import { createDatabase } from "../support/postgres.ts";

const CHALLENGE = "disk-full-deleted-log";

describe.each(DATABASES)("recording bounds on %s", (kind) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform(kind, {
      challengesDir: challengesFixture([CHALLENGE]),
      env: {
        RUNTIME: "none",
        RECORDINGS_MAX_FILES_PER_DEPLOYMENT: "3",
        RECORDINGS_MAX_FILES_PER_USER: "5",
        RECORDINGS_MAX_MB_PER_USER: "3",
        RECORDINGS_MAX_MB_PER_DEPLOYMENT: "50",
        RECORDINGS_PER_MINUTE: "8",
        OUTBOX_MAX_FILES: "40",
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.platform.db;
  async function player() {
    const u = await t.registerVerified();
    const token = (await t.login(u)).access_token as string;
    const id = (await db().selectFrom("users").select("id").where("username", "=", u.username).executeTakeFirstOrThrow()).id;
    return { ...u, token, id };
  }
  const begin = (userId: string, deploymentId: string) =>
    t.platform.recorder.begin({ userId, deploymentId, challengeId: CHALLENGE, source: "ssh", cols: 80, rows: 24 });
  /** A whole shell: begun, `typed` fed as keys, ended (its commands extracted and stored). */
  async function shell(userId: string, deploymentId: string, typed = "ls\r") {
    const rec = await begin(userId, deploymentId);
    if (!rec) return null;
    rec.input(typed);
    rec.output("root@host:~# ");
    await rec.finish();
    return rec.id;
  }
  const rows = (where: { user?: string; deployment?: string }) => {
    let q = db().selectFrom("recordings").selectAll().orderBy("started_at").orderBy("id");
    if (where.user) q = q.where("user_id", "=", where.user);
    if (where.deployment) q = q.where("deployment_id", "=", where.deployment);
    return q.execute();
  };
  const fileOf = (path: string) => join(t.dataDir, "recordings", path);
  const solve = (userId: string, deploymentId: string) =>
    db()
      .insertInto("solves")
      .values({ user_id: userId, challenge_id: CHALLENGE, deployment_id: deploymentId, points: 200, solve_seconds: 60, solved_at: nowSeconds() })
      .execute();

  it("a deployment keeps at most its quota of files: the oldest private ones make room, their files go too", async () => {
    const p = await player();
    const dep = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await shell(p.id, dep, `echo ${i}\r`))!);
    const kept = await rows({ deployment: dep });
    expect(kept.map((r) => r.id)).toEqual(ids.slice(2));
    expect(readdirSync(join(t.dataDir, "recordings", p.id)).sort()).toEqual(
      ids
        .slice(2)
        .map((id) => `${id}.cast`)
        .sort(),
    );
    expect(kept.map((r) => JSON.parse(r.commands!))).toEqual([["echo 2"], ["echo 3"], ["echo 4"]]);
  });

  it("published recordings are never removed; the user's quota spans deployments", async () => {
    const p = await player();
    const first = randomUUID();
    const published = (await shell(p.id, first, "history\r"))!;
    await solve(p.id, first);
    expect((await t.call("PUT", `/recordings/${published}/published`, { token: p.token, body: { published: true } })).status).toBe(200);
    const others: string[] = [];
    for (let d = 0; d < 3; d++) {
      const dep = randomUUID();
      for (let i = 0; i < 2; i++) others.push((await shell(p.id, dep))!);
    }
    // 5 files per user: the published one and the 4 newest of the 6 others.
    const kept = await rows({ user: p.id });
    expect(kept.map((r) => r.id)).toEqual([published, ...others.slice(2)]);
    expect(existsSync(fileOf(kept[0]!.path))).toBe(true);
  });

  it("an open shell counts as a whole file: past the byte quota with nothing private left to remove, a shell runs unrecorded", async () => {
    const p = await player();
    const dep = randomUUID();
    // 3 MiB per user, 1 MiB counted for each open shell: the fourth has no room.
    const open: ShellRecording[] = [];
    for (let i = 0; i < 3; i++) open.push((await begin(p.id, dep))!);
    expect(open.every(Boolean)).toBe(true);
    expect(await begin(p.id, dep)).toBeNull();
    // Once one ends, its (small) file may go to make room.
    await open[0]!.finish();
    const next = await begin(p.id, dep);
    expect(next).not.toBeNull();
    expect((await rows({ user: p.id })).map((r) => r.id)).not.toContain(open[0]!.id);
    for (const r of [...open.slice(1), next!]) await r.finish();
    const text = await t.platform.metrics.render();
    expect(text).toMatch(/faultline_recordings_refused_total\{reason="quota"\} [1-9]/);
  });

  it("recorded shells per minute are limited per user (another user is unaffected)", async () => {
    const p = await player();
    const other = await player();
    const dep = randomUUID();
    const got: (string | null)[] = [];
    for (let i = 0; i < 10; i++) got.push(await shell(p.id, dep));
    expect(got.filter(Boolean)).toHaveLength(8);
    expect(got.slice(8)).toEqual([null, null]);
    expect(await shell(other.id, randomUUID())).not.toBeNull();
    expect(await t.platform.metrics.render()).toMatch(/faultline_recordings_refused_total\{reason="rate"\} [1-9]/);
  });

  it("the commands are extracted when the shell ends and the debrief reads the stored list", async () => {
    const p = await player();
    const dep = randomUUID();
    const id = (await shell(p.id, dep, "df -h\rdu -sh /srv\x7f\x7f\x7f\x7f/var\r"))!;
    const row = (await rows({ deployment: dep }))[0]!;
    expect(JSON.parse(row.commands!)).toEqual(["df -h", "du -sh /var"]);
    await solve(p.id, dep);
    expect((await t.call("GET", `/challenges/${CHALLENGE}/debrief`, { token: p.token })).body).toMatchObject({
      commands: ["df -h", "du -sh /var"],
      commands_cut: false,
    });
    // What the debrief shows is the stored list, not the file read again.
    await db()
      .updateTable("recordings")
      .set({ commands: JSON.stringify(["stored list"]) })
      .where("id", "=", id)
      .execute();
    expect((await t.call("GET", `/challenges/${CHALLENGE}/debrief`, { token: p.token })).body.commands).toEqual(["stored list"]);
  });

  it("a recording of an older deployment (never extracted) is extracted on first read, then stored", async () => {
    const p = await player();
    const dep = randomUUID();
    const id = randomUUID();
    mkdirSync(join(t.dataDir, "recordings", p.id), { recursive: true });
    writeFileSync(fileOf(join(p.id, `${id}.cast`)), ['{"version":2}', JSON.stringify([0.1, "i", "uptime\r"])].join("\n") + "\n");
    await db()
      .insertInto("recordings")
      .values({
        id,
        user_id: p.id,
        deployment_id: dep,
        challenge_id: CHALLENGE,
        source: "ssh",
        started_at: nowSeconds() - 60,
        ended_at: nowSeconds(),
        bytes: 40,
        truncated: 0,
        path: join(p.id, `${id}.cast`),
      })
      .execute();
    await solve(p.id, dep);
    expect((await t.call("GET", `/challenges/${CHALLENGE}/debrief`, { token: p.token })).body.commands).toEqual(["uptime"]);
    expect((await db().selectFrom("recordings").select("commands").where("id", "=", id).executeTakeFirstOrThrow()).commands).toBe(JSON.stringify(["uptime"]));
  });

  it("a shell still open when the debrief is read: its commands so far, not stored", async () => {
    const p = await player();
    const dep = randomUUID();
    const rec = (await begin(p.id, dep))!;
    rec.input("whoami\r");
    await solve(p.id, dep);
    // The write stream may not have flushed yet.
    await new Promise((r) => setTimeout(r, 50));
    expect((await t.call("GET", `/challenges/${CHALLENGE}/debrief`, { token: p.token })).body.commands).toEqual(["whoami"]);
    expect((await rows({ deployment: dep }))[0]!.commands).toBeNull();
    rec.input("id\r");
    await rec.finish();
    expect((await t.call("GET", `/challenges/${CHALLENGE}/debrief`, { token: p.token })).body.commands).toEqual(["whoami", "id"]);
  });

  it("a debrief holds at most 2,000 commands, and says the list was cut", async () => {
    const p = await player();
    const dep = randomUUID();
    for (let i = 0; i < 3; i++) {
      const list = Array.from({ length: 1000 }, (_, j) => `echo ${i}-${j}`);
      const id = randomUUID();
      await db()
        .insertInto("recordings")
        .values({
          id,
          user_id: p.id,
          deployment_id: dep,
          challenge_id: CHALLENGE,
          source: "ssh",
          started_at: nowSeconds() - 60 + i,
          ended_at: nowSeconds(),
          bytes: 1,
          truncated: 0,
          path: join(p.id, `${id}.cast`),
          commands: JSON.stringify(list),
        })
        .execute();
    }
    await solve(p.id, dep);
    const body = (await t.call("GET", `/challenges/${CHALLENGE}/debrief`, { token: p.token })).body;
    expect(body.commands).toHaveLength(2000);
    expect(body.commands.at(-1)).toBe("echo 1-999");
    expect(body.commands_cut).toBe(true);
  });

  it("/metrics says the bytes and files recordings use, kept by the database", async () => {
    const usage = await db()
      .selectFrom("recordings")
      .select([sql<number>`coalesce(sum(bytes), 0)`.as("bytes"), sql<number>`count(*)`.as("files")])
      .executeTakeFirstOrThrow();
    const text = await t.platform.metrics.render();
    expect(Number(usage.files)).toBeGreaterThan(0);
    expect(text).toContain(`faultline_disk_used_bytes{what="recordings"} ${Number(usage.bytes)}`);
    expect(text).toContain(`faultline_disk_files{what="recordings"} ${Number(usage.files)}`);
    expect(text).toMatch(/faultline_disk_free_bytes\{what="recordings"\} [1-9]/);
    expect(text).toMatch(/faultline_disk_used_bytes\{what="outbox"\} [1-9]/);
  });

  it("the 'someone tried to sign up with your address' notice: at most 3 a day per address, the answer unchanged", async () => {
    const owner = await t.registerVerified();
    for (let i = 0; i < 6; i++) {
      const res = await t.call("POST", "/auth/register", {
        body: { username: `again${i}${randomUUID().slice(0, 6)}`, email: owner.email.toUpperCase(), password: "another long password" },
        ip: freshIp(),
      });
      expect(res.status).toBe(201);
    }
    expect(t.mails(owner.email).filter((m) => /tried to sign up/.test(m.subject))).toHaveLength(3);
  });

  it("the outbox keeps at most OUTBOX_MAX_FILES mails, the oldest removed first", async () => {
    for (let i = 0; i < 45; i++) await t.register();
    const files = readdirSync(join(t.dataDir, "outbox"));
    expect(files.length).toBe(40);
  });
});

describe.each(DATABASES)("migration 0016 on %s", (kind) => {
  it("moves every row's path under RECORDINGS_DIR, counts what exists, and keeps the count with triggers", async () => {
    const url = kind === "postgres" ? await createDatabase(inject("postgresUrl")) : null;
    const db = url
      ? new Kysely<any>({ dialect: new PostgresDialect({ pool: new (await import("pg")).default.Pool({ connectionString: url, max: 2 }) }) })
      : new Kysely<any>({ dialect: new SqliteDialect({ database: new (await import("better-sqlite3")).default(":memory:") }) });
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo("0015_board_versions")).error).toBeUndefined();
      await db.insertInto("users").values({ id: "u1", username: "old", email: "old@example.test", created_at: 0, updated_at: 0 }).execute();
      await db
        .insertInto("recordings")
        .values({
          id: "r1",
          user_id: "u1",
          deployment_id: "d1",
          challenge_id: CHALLENGE,
          source: "ssh",
          started_at: 1,
          ended_at: 2,
          bytes: 100,
          truncated: 0,
          path: "recordings/u1/r1.cast",
        })
        .execute();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const row = await db.selectFrom("recordings").selectAll().where("id", "=", "r1").executeTakeFirstOrThrow();
      expect(row).toMatchObject({ path: "u1/r1.cast", commands: null });
      const usage = async () => {
        const u = await db.selectFrom("recording_usage").select(["bytes", "files"]).where("scope", "=", "all").executeTakeFirstOrThrow();
        return { bytes: Number(u.bytes), files: Number(u.files) };
      };
      expect(await usage()).toEqual({ bytes: 100, files: 1 });
      await db
        .insertInto("recordings")
        .values({
          id: "r2",
          user_id: "u1",
          deployment_id: "d1",
          challenge_id: CHALLENGE,
          source: "web",
          started_at: 3,
          ended_at: null,
          bytes: 10,
          truncated: 0,
          path: "u1/r2.cast",
        })
        .execute();
      await db.updateTable("recordings").set({ bytes: 500 }).where("id", "=", "r2").execute();
      expect(await usage()).toEqual({ bytes: 600, files: 2 });
      await db.deleteFrom("recordings").where("id", "=", "r1").execute();
      expect(await usage()).toEqual({ bytes: 500, files: 1 });
    } finally {
      await db.destroy();
    }
  });
});
