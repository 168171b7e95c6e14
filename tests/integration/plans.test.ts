// Plans enforced by the server, on SQLite and PostgreSQL (server/core/plans.ts, the sentences in
// shared/plans.ts): a free user is refused hard and expert, the 4th medium start of a UTC month,
// and a second deployment at once; Pro runs everything, three at once; a start that fails before
// it is ready gives its medium credit back; a Pro with an end turns free again. (Admins set plans
// through the admin console's audited route: tests/integration/admin*.test.ts.)
//
// Starts go through the real start path with the Docker driver pointed at an engine that is not
// there (DOCKER_HOST on a closed loopback port): admission runs, the queued row is written, and
// the background deploy fails as it would with the engine down. Deployments that already ran are
// written into the database as they would have been left (as tests/integration/capacity.test.ts
// does), so no test needs dockerd.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowSeconds } from "#server/db/index.ts";
import { concurrencyRefusal, difficultyLock, mediumLock, monthBounds } from "#shared/plans.ts";
import { challengesFixture, createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";
import { makeSshKey, putSshKey } from "../support/ssh-keys.ts";
import { expectError } from "./assertions.ts";

const EASY = "nginx-broken-config";
const EASY2 = "release-symlink-dangling";
const MEDIUM = ["cron-job-never-runs", "disk-full-deleted-log", "logrotate-never-rotates", "stockd-missing-library", "runaway-trace-fills-var"];
const HARD = "redis-exposed-no-auth";
const EXPERT = "migration-ingestd-chain";
const TITLES: Record<string, string> = {};

const keyDir = mkdtempSync(join(tmpdir(), "faultline-pkeys-"));
const fixture = challengesFixture([EASY, EASY2, ...MEDIUM, HARD, EXPERT]);
let made = 0;
const newKeyFile = () => makeSshKey(`plan${++made}`, "ed25519", { dir: keyDir }).file;

/** A loopback port nothing listens on: the "engine" there refuses every connection. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const savedDockerHost = process.env.DOCKER_HOST;
beforeAll(async () => {
  process.env.DOCKER_HOST = `tcp://127.0.0.1:${await closedPort()}`;
});
afterAll(() => {
  if (savedDockerHost === undefined) delete process.env.DOCKER_HOST;
  else process.env.DOCKER_HOST = savedDockerHost;
  rmSync(keyDir, { recursive: true, force: true });
  rmSync(fixture, { recursive: true, force: true });
});

describe.each(DATABASES)("plans on %s", (kind) => {
  let t: TestPlatform;

  beforeAll(async () => {
    t = await createTestPlatform(kind, { challengesDir: fixture, env: { RUNTIME: "docker", MAX_CONCURRENT_DEPLOYMENTS: "3" } });
    for (const c of await t.platform.db.selectFrom("challenges").select(["id", "title"]).execute()) TITLES[c.id] = c.title;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A verified player with an SSH key: their token and id. */
  async function player() {
    const u = await t.registerVerified();
    const token = (await t.login(u)).access_token;
    expect((await putSshKey((method, path, body) => t.call(method, path, { token, body }), newKeyFile())).status).toBe(200);
    const { id } = await t.platform.db.selectFrom("users").select("id").where("username", "=", u.username).executeTakeFirstOrThrow();
    return { token, id };
  }

  /** A deployment as an earlier start would have left it. */
  async function ranBefore(userId: string, challengeId: string, o: { status?: "ready" | "terminated" | "failed"; createdAt?: number; ready?: boolean } = {}) {
    const created = o.createdAt ?? nowSeconds() - 60;
    const status = o.status ?? "terminated";
    const active = status === "ready";
    await t.platform.db
      .insertInto("deployments")
      .values({
        id: `ran-${kind}-${Math.random().toString(36).slice(2, 12)}`,
        user_id: userId,
        challenge_id: challengeId,
        status,
        error_message: null,
        ssh_user: challengeId,
        container_id: active ? "c" : null,
        scenario_values: null,
        active_key: active ? `${userId}:${challengeId}` : null,
        created_at: created,
        ready_at: o.ready === false ? null : created + 2,
        expires_at: created + 1800,
        ended_at: active ? null : created + 600,
        updated_at: created,
      })
      .execute();
  }

  const start = (token: string, id: string) => t.call("POST", `/challenges/${id}/session/start`, { token });
  /** Starts, then waits for the background deploy to fail against the absent engine. */
  async function startAndFail(token: string, id: string) {
    const r = await start(token, id);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await t.platform.deployments.settled();
    expect((await t.call("GET", `/challenges/${id}/active-session`, { token })).body.status).toBe("failed");
  }
  const setPlan = (userId: string, plan: "free" | "pro", until: number | null) => t.platform.plans.setPlan(userId, plan, until);

  it("a free user is refused hard and expert challenges with the rule and what Pro gives; easy starts", async () => {
    const p = await player();
    expectError(await start(p.token, HARD), 403, difficultyLock("free", "hard")!);
    expectError(await start(p.token, EXPERT), 403, difficultyLock("free", "expert")!);
    expect(difficultyLock("free", "hard")).toBe(
      "Hard challenges are not included in the free plan (easy, and 3 medium a month). Pro includes every level, hard and expert included.",
    );
    await startAndFail(p.token, EASY);
    const me = (await t.call("GET", "/users/me", { token: p.token })).body;
    expect(me).toMatchObject({ plan: "free", plan_until: null });
  });

  it("the 4th medium start of the month is refused; last month's starts do not count", async () => {
    const p = await player();
    const { start: monthStart, next } = monthBounds(nowSeconds());
    await ranBefore(p.id, MEDIUM[0]!, { createdAt: monthStart - 3600 }); // last month
    for (const id of MEDIUM.slice(0, 3)) await ranBefore(p.id, id);
    const refused = await start(p.token, MEDIUM[3]!);
    expectError(refused, 403, mediumLock("free", 3, next)!);
    expect(refused.body.detail).toMatch(
      /^The free plan includes 3 medium challenges a month and you have started 3 this month; the next month starts on \w+ 1 \(UTC\)\. Pro has no monthly limit\.$/,
    );
    const status = (await t.call("GET", "/users/me/plan", { token: p.token })).body;
    expect(status).toMatchObject({
      plan: "free",
      plan_until: null,
      limits: { concurrent_deployments: 1, medium_per_month: 3, difficulties: ["easy", "medium"] },
      usage: { medium_started_this_month: 3, active_deployments: 0 },
      month_resets_at: new Date(next * 1000).toISOString(),
    });
    // Easy challenges have no monthly limit.
    await startAndFail(p.token, EASY);
  });

  it("a start that fails before it is ready gives its medium credit back", async () => {
    const p = await player();
    await ranBefore(p.id, MEDIUM[0]!);
    await ranBefore(p.id, MEDIUM[1]!);
    // The third start of the month fails (no engine): the credit comes back.
    await startAndFail(p.token, MEDIUM[2]!);
    expect((await t.call("GET", "/users/me/plan", { token: p.token })).body.usage.medium_started_this_month).toBe(2);
    await startAndFail(p.token, MEDIUM[2]!);
    expect((await t.call("GET", "/users/me/plan", { token: p.token })).body.usage.medium_started_this_month).toBe(2);
    // One that became ready before it failed (the environment stopped later) was used: it counts.
    await ranBefore(p.id, MEDIUM[2]!, { status: "failed", ready: true });
    expectError(await start(p.token, MEDIUM[3]!), 403, /you have started 3 this month/);
  });

  it("concurrency: free runs one deployment at a time, Pro three", async () => {
    const free = await player();
    await ranBefore(free.id, EASY, { status: "ready" });
    expectError(await start(free.token, EASY2), 403, concurrencyRefusal("free", [TITLES[EASY]!]));
    expect(concurrencyRefusal("free", ["X"])).toBe(
      'The free plan runs one deployment at a time: terminate your deployment of "X" first. Pro runs up to 3 at once.',
    );

    const pro = await player();
    expect(await setPlan(pro.id, "pro", null)).toEqual({ plan: "pro", plan_until: null });
    await ranBefore(pro.id, EASY, { status: "ready" });
    await ranBefore(pro.id, HARD, { status: "ready" });
    // The third at once is admitted (and fails for want of an engine).
    await startAndFail(pro.token, EXPERT);
    await ranBefore(pro.id, MEDIUM[4]!, { status: "ready" });
    const refused = await start(pro.token, EASY2);
    expectError(refused, 403, /^Pro runs up to 3 deployments at a time: terminate your deployment of ".+", ".+", ".+" first\.$/);
    for (const id of [EASY, HARD, MEDIUM[4]!]) expect(refused.body.detail).toContain(`"${TITLES[id]}"`);
  });

  it("Pro has every level and no monthly medium limit, until its end; then the free rules apply again", async () => {
    const p = await player();
    for (const id of MEDIUM.slice(0, 4)) await ranBefore(p.id, id);
    const end = nowSeconds() + 3600;
    const until = new Date(end * 1000).toISOString();
    expect(await setPlan(p.id, "pro", end)).toEqual({ plan: "pro", plan_until: until });
    await startAndFail(p.token, HARD);
    await startAndFail(p.token, MEDIUM[4]!);
    expect((await t.call("GET", "/users/me", { token: p.token })).body).toMatchObject({ plan: "pro", plan_until: until });
    expect((await t.call("GET", "/users/me/plan", { token: p.token })).body).toMatchObject({
      plan: "pro",
      plan_until: until,
      limits: { concurrent_deployments: 3, medium_per_month: null, difficulties: ["easy", "medium", "hard", "expert"] },
    });
    // The end passes: free again.
    await t.platform.db
      .updateTable("users")
      .set({ plan_until: nowSeconds() - 1 })
      .where("id", "=", p.id)
      .execute();
    expectError(await start(p.token, HARD), 403, difficultyLock("free", "hard")!);
    expect((await t.call("GET", "/users/me", { token: p.token })).body).toMatchObject({ plan: "free", plan_until: null });
  });

  it("setting a plan: Pro needs an end in the future (or none); free has no end", async () => {
    const p = await player();
    await expect(setPlan(p.id, "pro", nowSeconds() - 10)).rejects.toThrow("plan_until: must be in the future");
    await expect(setPlan("no-such-user", "pro", null)).rejects.toThrow("User not found");
    expect(await setPlan(p.id, "free", nowSeconds() + 999)).toEqual({ plan: "free", plan_until: null });
    expect((await t.call("GET", "/users/me/plan", { token: p.token })).body.plan).toBe("free");
  });
});
