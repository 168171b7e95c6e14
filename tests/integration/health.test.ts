// GET /api/v1/health on SQLite and PostgreSQL: its shape, that it tells nothing internal (no
// paths, no messages, no addresses), the deployments it counts, the short cache, and a database
// that stops answering turning it "down". The engine's side (a stopped engine, a missing image)
// is measured against the real dockerd in tests/runtime/health.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowSeconds } from "#server/db/index.ts";
import { challengesFixture, createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";

const DISK = "disk-full-deleted-log";
const CONTENT = challengesFixture([DISK, "nginx-broken-config"]);
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Nothing of the machine or of an error: no slashes (paths, sockets, URLs), no messages. */
function expectNothingInternal(body: unknown, dataDir: string) {
  const text = JSON.stringify(body);
  expect(text).not.toContain(dataDir);
  expect(text).not.toMatch(/\/|\\|error|stack|sock|ECONN|ENOENT|127\.0\.0\.1|localhost|postgres:|sqlite/i);
}

describe.each(DATABASES)("health on %s", (kind) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { env: { RUNTIME: "none" }, challengesDir: CONTENT });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("without an engine: ok, the engine's parts disabled, no sign-in needed", async () => {
    const r = await t.call("GET", "/health");
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body).toEqual({
      status: "ok",
      checked_at: expect.stringMatching(ISO),
      components: {
        database: { status: "ok" },
        runtime: { status: "disabled", engine: "disabled", images_expected: 2, images_missing: null },
        gateway: { status: "disabled" },
        worker: { status: "disabled", last_tick_at: null },
      },
      deployments_running: 0,
    });
    expect(Math.abs(Date.parse(r.body.checked_at) - Date.now())).toBeLessThan(10_000);
    expectNothingInternal(r.body, t.dataDir);
  });

  it("counts active deployments, and measures again only after a few seconds", async () => {
    const first = (await t.call("GET", "/health")).body;
    const user = await t.registerVerified();
    const userId = (await t.platform.db.selectFrom("users").select("id").where("username", "=", user.username).executeTakeFirstOrThrow()).id;
    const now = nowSeconds();
    await t.platform.db
      .insertInto("deployments")
      .values({
        id: `health-${kind}-${Math.random().toString(36).slice(2, 10)}`,
        user_id: userId,
        challenge_id: DISK,
        status: "ready",
        error_message: null,
        ssh_user: DISK,
        container_id: "c",
        scenario_values: null,
        active_key: `${userId}:${DISK}`,
        created_at: now,
        ready_at: now,
        expires_at: now + 600,
        ended_at: null,
        updated_at: now,
      })
      .execute();
    // Within the cache's few seconds: the same measurement (a flood of requests costs one).
    const cached = (await t.call("GET", "/health")).body;
    if (Date.parse(cached.checked_at) === Date.parse(first.checked_at)) expect(cached.deployments_running).toBe(0);
    await new Promise((r) => setTimeout(r, 3100));
    const fresh = (await t.call("GET", "/health")).body;
    expect(Date.parse(fresh.checked_at)).toBeGreaterThan(Date.parse(first.checked_at));
    expect(fresh.deployments_running).toBe(1);
  });

  it("with an engine configured but no gateway or worker running (an API-only process): degraded", async () => {
    const api = await createTestPlatform(kind, { challengesDir: CONTENT });
    try {
      const r = await api.call("GET", "/health");
      expect(r.status).toBe(200);
      expect(r.body.status).toBe("degraded");
      expect(r.body.components.gateway).toEqual({ status: "down" });
      expect(r.body.components.worker).toEqual({ status: "down", last_tick_at: null });
      // Whether this machine's engine answers or not, the answer holds only status words and counts.
      expect(["ok", "degraded", "down"]).toContain(r.body.components.runtime.status);
      expectNothingInternal(r.body, api.dataDir);
    } finally {
      await api.close();
    }
  });

  it("a database that does not answer: down, still a clean answer", async () => {
    const broken = await createTestPlatform(kind, { env: { RUNTIME: "none" }, challengesDir: CONTENT });
    await broken.platform.db.destroy();
    try {
      const r = await broken.call("GET", "/health");
      expect(r.status).toBe(200);
      expect(r.body.status).toBe("down");
      expect(r.body.components.database).toEqual({ status: "down" });
      expect(r.body.deployments_running).toBeNull();
      expectNothingInternal(r.body, broken.dataDir);
    } finally {
      await broken.close().catch(() => {});
    }
  });
});
