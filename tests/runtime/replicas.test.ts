// Two replicas on one PostgreSQL (README, "Several replicas"): two server.ts processes (ROLE
// api,ssh,worker: no web build needed) with their own DATA_DIR and ports, one throwaway
// PostgreSQL, the local dockerd. What one process holds in memory on SQLite is shared here: the
// start locks and rate limits hold across both, a start through one is pushed live by the other,
// exactly one leads the worker, and when the leader is killed with -9 the other takes over within
// seconds, adopts the deployment (same installation id, from the database) and ends it on time.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Docker from "dockerode";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCK_SPACE } from "#server/db/cluster.ts";
import { LABEL } from "#server/runtime/policy.ts";
import { createDatabase, startPostgres, type TestPostgres } from "../support/postgres.ts";
import { apiAt, makePlayer, openLive, spawnServer, waitForStatus, type Api } from "../support/server.ts";

const NGINX = "nginx-broken-config";
const OWNER = "restore-wrong-owner";
const SECRET = "replicas-test-session-secret-0123456789abcdef";

interface Replica {
  name: string;
  id: string;
  dataDir: string;
  api: Api;
  base: string;
  proc: ReturnType<typeof spawnServer>;
}

let postgres: TestPostgres;
let databaseUrl: string;
let probe: pg.Client;
const replicas: Replica[] = [];
const docker = new Docker();

async function startReplica(name: string): Promise<Replica> {
  const dataDir = mkdtempSync(join(tmpdir(), `faultline-replica-${name}-`));
  const proc = spawnServer(dataDir, {
    DATABASE_URL: databaseUrl,
    ROLE: "api,ssh,worker",
    SESSION_SECRET: SECRET,
    // A deployment lives a minute: the survivor must end it on time after the takeover.
    SESSION_DURATION_MINUTES: "1",
  });
  const { port } = await proc.ready;
  const id = await until(() => /replica (\d+): roles/.exec(proc.log())?.[1], 30_000, `${name}'s replica line`);
  const base = `http://127.0.0.1:${port}`;
  const r = { name, id, dataDir, api: apiAt(base), base, proc };
  replicas.push(r);
  return r;
}

/** Polls `get` until it gives a value. */
async function until<T>(get: () => T | undefined | Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await get();
    if (v !== undefined && v !== null && v !== false) return v as T;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

/** The replica id holding the worker's leadership, read from PostgreSQL's own lock table. */
async function leaderId(): Promise<string | undefined> {
  const { rows } = await probe.query<{ app: string }>(
    `SELECT a.application_name AS app FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = 0 AND l.objsubid = 2
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [LOCK_SPACE.leader],
  );
  return /faultline replica (\d+)/.exec(rows[0]?.app ?? "")?.[1];
}

const containersOf = (deploymentId: string) => docker.listContainers({ all: true, filters: { label: [`${LABEL.deployment}=${deploymentId}`] } });

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await createDatabase(postgres.url);
  probe = new pg.Client({ connectionString: databaseUrl });
  await probe.connect();
  // One after the other: the first migrates the database.
  await startReplica("a");
  await startReplica("b");
});

const exited = (r: Replica) => r.proc.child.exitCode !== null || r.proc.child.signalCode !== null;

afterAll(async () => {
  for (const r of replicas) if (!exited(r)) r.proc.child.kill("SIGTERM");
  await Promise.all(replicas.map((r) => new Promise((res) => (exited(r) ? res(null) : r.proc.child.once("exit", res)))));
  await probe?.end();
  await postgres?.stop();
  for (const r of replicas) rmSync(r.dataDir, { recursive: true, force: true });
});

describe("two replicas on one PostgreSQL", () => {
  it("exactly one of them leads the worker", async () => {
    const leader = await until(leaderId, 15_000, "a leader");
    expect(replicas.map((r) => r.id)).toContain(leader);
    expect(replicas[0]!.id).not.toBe(replicas[1]!.id);
  });

  it("share the start lock: parallel starts on both, under a one-at-a-time plan, make one deployment", async () => {
    const [a, b] = replicas as [Replica, Replica];
    const p = await makePlayer(a.api, a.dataDir);
    const starts = await Promise.all(
      [a, b, a, b, a, b].map((r, i) => r.api.call("POST", `/challenges/${i % 2 ? OWNER : NGINX}/session/start`, { token: p.token })),
    );
    const ok = starts.filter((s) => s.status === 200 || s.status === 201 || s.status === 202);
    expect(ok, JSON.stringify(starts.map((s) => [s.status, s.body]))).toHaveLength(1);
    const { rows } = await probe.query(
      "SELECT id, challenge_id FROM deployments WHERE user_id = (SELECT id FROM users WHERE username = $1) AND active_key IS NOT NULL",
      [p.username],
    );
    expect(rows).toHaveLength(1);
    const challenge = rows[0].challenge_id as string;
    await waitForStatus(b.api, p.token, challenge, (s) => s === "ready" || s === "failed", 120_000);
    expect((await b.api.call("POST", `/challenges/${challenge}/session/terminate`, { token: p.token })).status).toBe(200);
  });

  it("share rate limits: wrong passwords spread over both count against one allowance", async () => {
    const [a, b] = replicas as [Replica, Replica];
    const p = await makePlayer(a.api, a.dataDir, { key: false });
    const statuses: number[] = [];
    // Five tries per account and address (server/core/accounts/limits.ts), whichever replica.
    for (let i = 0; i < 8; i++) {
      const r = await (i % 2 ? b : a).api.call("POST", "/auth/login", { body: { username_or_email: p.username, password: "wrong password, try again" } });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it("a start through the leader is pushed live by the other; kill -9 the leader, the other takes over and ends the deployment on time", async () => {
    const leader = replicas.find((r) => r.id === leaderIdCache)!;
    const follower = replicas.find((r) => r !== leader)!;
    const p = await makePlayer(leader.api, leader.dataDir);
    const started = await leader.api.call("POST", `/challenges/${NGINX}/session/start`, { token: p.token });
    expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
    const id = started.body.session_id as string;
    // A live client of the other replica: it hears the leader's deployment become ready.
    const live = openLive(follower.base, id, p.token);
    const ready = await live.until((m) => m.type === "deployment_update" && m.status === "ready", 120_000);
    expect(ready.deployment_id).toBe(id);
    expect(live.messages.some((m) => m.type === "deployment_ready" || m.type === "progress_update")).toBe(true);
    const containers = (await containersOf(id)).length;
    expect(containers).toBeGreaterThan(0);

    leader.proc.child.kill("SIGKILL");
    const killedAt = Date.now();
    await until(async () => (await leaderId()) === follower.id, 15_000, "the follower to take over");
    expect(Date.now() - killedAt).toBeLessThan(15_000);

    // Nothing lost: still listed, still ready, its containers still there (adopted, not orphans).
    await new Promise((res) => setTimeout(res, 3000));
    const now = await follower.api.call("GET", `/challenges/${NGINX}/active-session`, { token: p.token });
    expect(now.status).toBe(200);
    expect(now.body.status).toBe("ready");
    expect((await containersOf(id)).length).toBe(containers);
    expect(live.messages.some((m) => m.status === "failed" || m.status === "terminated")).toBe(false);

    // It ends on time (one minute from its start) by the new leader, pushed live, containers gone.
    const end = await live.until((m) => m.type === "deployment_update" && m.status === "terminated", 120_000);
    expect(end.deployment_id).toBe(id);
    const expiresAt = Date.parse(started.body.expires_at);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt - 1000);
    expect(Date.now()).toBeLessThan(expiresAt + 15_000);
    await until(async () => (await containersOf(id)).length === 0, 30_000, "the deployment's containers to go");
    const row = await probe.query("SELECT status, error_message FROM deployments WHERE id = $1", [id]);
    expect(row.rows[0]).toEqual({ status: "terminated", error_message: "The deployment expired." });
  });
});

let leaderIdCache: string | undefined;
beforeAll(async () => {
  leaderIdCache = await until(leaderId, 15_000, "a leader");
});
