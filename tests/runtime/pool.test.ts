// The warm pool against a real dockerd, the real server (API, gateway, worker) and the real
// OpenSSH client: the worker fills a challenge's pool (`pool:` in its challenge.yaml) with
// deployments set up ahead, each with its own values; a start claims one, ready at once; no one
// reaches a pooled deployment over SSH, nor another user's claimed one; ending destroys it (never
// back to the pool); the pool refills; pooled deployments count against the host's capacity and
// give their room to a person's start.
import { appendFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientOptions, runClient, waitFor } from "../gateway/support.ts";
import { challengesFixture } from "../support/platform.ts";
import { HOST, startTestServer, type Player } from "../support/server.ts";

const POOLED = "nginx-broken-config";
const OTHER = "disk-full-deleted-log";
const docker = new Docker();
const INFO = ["-o", "LogLevel=INFO"];

type Server = Awaited<ReturnType<typeof startTestServer>>;

const ssh = (port: number, who: { key: Player["key"] }, user: string, command: string) =>
  runClient("ssh", [...clientOptions(who.key, INFO), "-p", String(port), `${user}@${HOST}`, command], { timeoutMs: 60_000 });

/** A copy of the challenges with `pool: <size>` added to POOLED's challenge.yaml. */
function fixture(size: number) {
  const dir = challengesFixture([POOLED, OTHER]);
  appendFileSync(join(dir, POOLED, "challenge.yaml"), `\npool: ${size}\n`);
  return dir;
}

const pooledRows = (server: Server) => server.platform.db.selectFrom("pool_deployments").selectAll().where("challenge_id", "=", POOLED).execute();
const readyPool = async (server: Server, n: number) =>
  waitFor(
    `${n} ready pooled deployments`,
    async () => {
      const rows = (await pooledRows(server)).filter((r) => r.status === "ready");
      return rows.length >= n ? rows : null;
    },
    120_000,
    250,
  );
const containerGone = async (id: string) =>
  docker
    .getContainer(id)
    .inspect()
    .then(
      () => false,
      (e) => (e as { statusCode?: number }).statusCode === 404,
    );

describe("the warm pool", () => {
  let server: Server;
  let challengesDir: string;
  let alice: Player;
  let bob: Player;
  let carol: Player;
  const claimed: { id: string; container: string; values: string | null }[] = [];

  beforeAll(async () => {
    challengesDir = fixture(2);
    server = await startTestServer({ CHALLENGES_DIR: challengesDir });
    [alice, bob, carol] = await Promise.all([server.player(), server.player(), server.player()]);
  });
  afterAll(async () => {
    await server?.platform.deployments.pool.drain();
    await server?.stop();
    rmSync(challengesDir, { recursive: true, force: true });
  });

  it("fills each challenge's pool to its size, each set up with its own values", async () => {
    const rows = await readyPool(server, 2);
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.container_id).toBeTruthy();
      const c = await docker.getContainer(r.container_id!).inspect();
      expect(c.State.Running).toBe(true);
      expect(JSON.parse(r.scenario_values!)).toHaveProperty("build");
    }
    expect(new Set(rows.map((r) => r.scenario_values)).size).toBe(2);
    // Only challenges that ask for a pool get one (WARM_POOL_SIZE is 0 by default).
    const sizes = await server.platform.deployments.pool.sizes();
    expect(sizes).toEqual([{ challenge_id: POOLED, ready: 2, warming: 0, target: 2 }]);
  });

  it("no one reaches a pooled deployment over SSH", async () => {
    for (const user of [POOLED, "root", "pool"]) {
      const r = await ssh(server.sshPort, alice, user, "hostname");
      expect(r.code).toBe(255);
      expect(r.stderr).toMatch(/No running faultline deployment/);
    }
  });

  it("a start is checked as a cold one before it claims: refused, the pool keeps its deployments", async () => {
    const unverified = await server.player({ verify: false });
    const r = await server.api.call("POST", `/challenges/${POOLED}/session/start`, { token: unverified.token });
    expect(r.status).toBe(403);
    expect((await pooledRows(server)).filter((p) => p.status === "ready")).toHaveLength(2);
  });

  it("a start claims a ready deployment with its own values; its expiry counts from the claim", async () => {
    const before = await readyPool(server, 2);
    const t0 = performance.now();
    const r = await server.api.call("POST", `/challenges/${POOLED}/session/start`, { token: alice.token });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.deployment_status.status).toBe("ready");
    expect(performance.now() - t0).toBeLessThan(1000);
    const id = r.body.deployment_status.deployment_id;
    const oldest = before.sort((a, b) => a.ready_at! - b.ready_at!)[0]!;
    expect(id).toBe(oldest.id);
    expect(Date.parse(r.body.expires_at) - Date.now()).toBeGreaterThan(29 * 60_000);
    const row = await server.platform.deployments.row(id);
    expect(row).toMatchObject({ status: "ready", user_id: expect.any(String), container_id: oldest.container_id, scenario_values: oldest.scenario_values });
    expect(row!.created_at).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 5);
    expect(row!.created_at).toBeGreaterThanOrEqual(oldest.created_at);
    expect((await pooledRows(server)).map((p) => p.id)).not.toContain(id);
    claimed.push({ id, container: row!.container_id!, values: row!.scenario_values });

    const shell = await ssh(server.sshPort, alice, POOLED, "echo alice-was-here > /tmp/marker; hostname");
    expect(shell.code, shell.stderr).toBe(0);
  });

  it("a second claim never gets the same container", async () => {
    const r = await server.api.call("POST", `/challenges/${POOLED}/session/start`, { token: bob.token });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.deployment_status.status).toBe("ready");
    const row = (await server.platform.deployments.row(r.body.deployment_status.deployment_id))!;
    expect(row.id).not.toBe(claimed[0]!.id);
    expect(row.container_id).not.toBe(claimed[0]!.container);
    expect(row.scenario_values).not.toBe(claimed[0]!.values);
    claimed.push({ id: row.id, container: row.container_id!, values: row.scenario_values });
  });

  it("a claimed deployment is its owner's only: others land in their own or nowhere", async () => {
    const own = await ssh(server.sshPort, bob, POOLED, "cat /tmp/marker 2>&1 || true");
    expect(own.code, own.stderr).toBe(0);
    expect(own.stdout).not.toContain("alice-was-here");
    const none = await ssh(server.sshPort, carol, POOLED, "cat /tmp/marker");
    expect(none.code).toBe(255);
    expect(none.stderr).toMatch(/No running faultline deployment/);
  });

  it("the pool refills in the background, with new deployments", async () => {
    const rows = await readyPool(server, 2);
    const ids = rows.map((r) => r.id);
    for (const c of claimed) {
      expect(ids).not.toContain(c.id);
      expect(rows.map((r) => r.container_id)).not.toContain(c.container);
    }
  });

  it("ending a claimed deployment destroys it: it never goes back to the pool", async () => {
    const r = await server.api.call("POST", `/challenges/${POOLED}/session/terminate`, { token: alice.token });
    expect(r.status).toBe(200);
    await waitFor("the container removed", () => containerGone(claimed[0]!.container), 30_000);
    expect((await pooledRows(server)).map((p) => p.id)).not.toContain(claimed[0]!.id);
    // A new start of the same user gets another one.
    const again = await server.api.call("POST", `/challenges/${POOLED}/session/start`, { token: alice.token });
    expect(again.status).toBe(201);
    expect(again.body.deployment_status.deployment_id).not.toBe(claimed[0]!.id);
    await server.api.call("POST", `/challenges/${POOLED}/session/terminate`, { token: alice.token });
    await server.api.call("POST", `/challenges/${POOLED}/session/terminate`, { token: bob.token });
  });

  it("maintenance mode stops the pool: what is pooled goes, nothing fills until it ends; a hidden challenge gets no pool", async () => {
    const before = await readyPool(server, 2);
    const admin = await server.player({ key: false });
    await server.platform.accounts.setAdmin(admin.username, true);
    const settings = (maintenance_mode: boolean) => server.api.call("PUT", "/admin/settings", { token: admin.token, body: { maintenance_mode } });
    const hide = (hidden: boolean) => server.api.call("PUT", `/admin/challenges/${POOLED}/visibility`, { token: admin.token, body: { hidden } });
    const emptyFor = async (why: string) => {
      await waitFor(`the pool emptied (${why})`, async () => ((await pooledRows(server)).length === 0 ? true : null), 60_000, 250);
      for (const r of before) await waitFor("a pooled container removed", () => containerGone(r.container_id!), 30_000);
      // Several refill rounds later, still nothing: no container is made for nobody.
      await new Promise((r) => setTimeout(r, 8000));
      expect(await pooledRows(server)).toEqual([]);
    };

    expect((await settings(true)).status).toBe(200);
    try {
      await emptyFor("maintenance");
    } finally {
      await settings(false);
    }
    const refilled = await readyPool(server, 2);
    expect((await hide(true)).status).toBe(200);
    try {
      before.splice(0, before.length, ...refilled);
      await emptyFor("hidden");
    } finally {
      await hide(false);
    }
    await readyPool(server, 2);
  });

  it("a restart keeps the pool: the new process adopts the ready ones", async () => {
    const rows = await readyPool(server, 2);
    // Reconciliation (as a restarted worker runs it) must not take pooled containers for orphans.
    await server.platform.deployments.reconcile({ resume: true });
    const after = await pooledRows(server);
    expect(after.map((r) => r.id).sort()).toEqual(expect.arrayContaining(rows.map((r) => r.id).sort()));
    for (const r of rows) expect(await containerGone(r.container_id!)).toBe(false);
  });
});

describe("the warm pool and the host's capacity", () => {
  let server: Server;
  let challengesDir: string;

  beforeAll(async () => {
    challengesDir = fixture(3);
    // Room for one deployment of 512 MiB and its overhead, not two.
    server = await startTestServer({ CHALLENGES_DIR: challengesDir, CAPACITY_MEMORY_MB: "700" });
  });
  afterAll(async () => {
    await server?.platform.deployments.pool.drain();
    await server?.stop();
    rmSync(challengesDir, { recursive: true, force: true });
  });

  it("pooled deployments count: the pool stops at the capacity, and gives its room to a start of another challenge", async () => {
    const [pooled] = await readyPool(server, 1);
    // Size 3 asked, room for one: the pool stays at one.
    await new Promise((r) => setTimeout(r, 5000));
    expect(await pooledRows(server)).toHaveLength(1);

    const player = await server.player();
    const r = await server.api.call("POST", `/challenges/${OTHER}/session/start`, { token: player.token });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.deployment_status.status).toBe("queued");
    await waitFor("the pooled container removed", () => containerGone(pooled!.container_id!), 30_000);
    // And while the person's deployment holds the room, the pool does not take it back.
    const other = await server.player();
    const full = await server.api.call("POST", `/challenges/${POOLED}/session/start`, { token: other.token });
    expect(full.status).toBe(503);
    expect(JSON.stringify(full.body)).toMatch(/faultline is full right now/);
    const mine = await server.platform.deployments.row(r.body.deployment_status.deployment_id);
    expect(await pooledRows(server), JSON.stringify(mine)).toHaveLength(0);
    await server.platform.deployments.settled();
    await server.api.call("POST", `/challenges/${OTHER}/session/terminate`, { token: player.token });
  });
});
