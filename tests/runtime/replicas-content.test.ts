// Two replicas on one PostgreSQL, sharing one CHALLENGES_DIR (README, "Several replicas"): what
// each keeps in memory follows what the other changes. An admin's reload of the challenge library
// on one is read by the other (a challenge added or removed on disk is offered or refused by both,
// its hints included: those come from the library in memory, not the catalogue's table), and a
// replica whose listening connection to PostgreSQL dropped reads, once it is back, what it was
// not told meanwhile (maintenance mode saved and the library reloaded on the other). A replica
// that starts with updated content brings the running ones up to date, as a reload would.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, startPostgres, type TestPostgres } from "../support/postgres.ts";
import { apiAt, makePlayer, spawnServer, type Api, type Player } from "../support/server.ts";

const SECRET = "replicas-content-test-session-secret-0123456789";
/** Copied from challenges/ into this test's own CHALLENGES_DIR, which the test then changes. */
const SOURCE = "nginx-broken-config";
const SECOND = "restore-wrong-owner";

interface Replica {
  name: string;
  id: string;
  dataDir: string;
  api: Api;
  proc: ReturnType<typeof spawnServer>;
}

let postgres: TestPostgres;
let probe: pg.Client;
let content: string;
let admin: Player;
let a: Replica;
let b: Replica;
let databaseUrl: string;
const replicas: Replica[] = [];

async function startReplica(name: string, databaseUrl: string): Promise<Replica> {
  const dataDir = mkdtempSync(join(tmpdir(), `faultline-replica-${name}-`));
  // api and ssh: no worker, so nothing here touches the engine.
  const proc = spawnServer(dataDir, { DATABASE_URL: databaseUrl, ROLE: "api,ssh", SESSION_SECRET: SECRET, CHALLENGES_DIR: content });
  const { port } = await proc.ready;
  const id = await until(() => /replica (\d+): roles/.exec(proc.log())?.[1], 30_000, `${name}'s replica line`);
  const r = { name, id, dataDir, api: apiAt(`http://127.0.0.1:${port}`), proc };
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
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** A new challenge on disk: a copy of SOURCE under another folder name and title. */
function addChallenge(slug: string) {
  cpSync(join(content, SOURCE), join(content, slug), { recursive: true });
  const yaml = join(content, slug, "challenge.yaml");
  writeFileSync(yaml, readFileSync(yaml, "utf8").replace(/^title: .*$/m, `title: Copy ${slug}`));
}

const hintsOn = (r: Replica, slug: string) => r.api.call("GET", `/challenges/${slug}/hints`, { token: admin.token });
const listedOn = async (r: Replica) => ((await r.api.call("GET", "/challenges/?limit=100")).body.challenges as { id: string }[]).map((c) => c.id);
const reloadOn = (r: Replica) => r.api.call("POST", "/admin/challenges/reload", { token: admin.token });

/** PostgreSQL's backend for a replica's listening connection (named after the replica). */
async function listenerPid(r: Replica): Promise<number | undefined> {
  const { rows } = await probe.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [`faultline replica ${r.id}`]);
  return rows[0]?.pid;
}

beforeAll(async () => {
  content = mkdtempSync(join(tmpdir(), "faultline-content-"));
  for (const slug of [SOURCE, SECOND]) cpSync(join("challenges", slug), join(content, slug), { recursive: true });
  postgres = await startPostgres();
  databaseUrl = await createDatabase(postgres.url);
  probe = new pg.Client({ connectionString: databaseUrl });
  await probe.connect();
  // One after the other: the first migrates the database.
  a = await startReplica("a", databaseUrl);
  b = await startReplica("b", databaseUrl);
  admin = await makePlayer(a.api, a.dataDir, { key: false });
  await probe.query("UPDATE users SET is_admin = 1 WHERE username = $1", [admin.username]);
});

const exited = (r: Replica) => r.proc.child.exitCode !== null || r.proc.child.signalCode !== null;

afterAll(async () => {
  for (const r of replicas) if (!exited(r)) r.proc.child.kill("SIGTERM");
  await Promise.all(replicas.map((r) => new Promise((res) => (exited(r) ? res(null) : r.proc.child.once("exit", res)))));
  await probe?.end();
  await postgres?.stop();
  for (const r of replicas) rmSync(r.dataDir, { recursive: true, force: true });
  if (content) rmSync(content, { recursive: true, force: true });
});

describe("two replicas sharing one challenge library", () => {
  it("a reload on one is read by the other: a challenge added on disk is served by both, one removed by neither", async () => {
    addChallenge("added-on-disk");
    expect((await hintsOn(b, "added-on-disk")).status).toBe(404);
    const reload = await reloadOn(a);
    expect(reload.status, JSON.stringify(reload.body)).toBe(200);
    expect(reload.body.added).toEqual(["added-on-disk"]);
    // The catalogue (the database's table) lists it on both at once…
    expect(await listedOn(b)).toContain("added-on-disk");
    // …and the other replica's library in memory follows within a couple of seconds.
    const hints = await until(
      async () => {
        const r = await hintsOn(b, "added-on-disk");
        return r.status === 200 ? r : undefined;
      },
      3000,
      "the other replica to serve the added challenge's hints",
    );
    expect(hints.body.count).toBeGreaterThan(0);

    rmSync(join(content, "added-on-disk"), { recursive: true });
    expect((await reloadOn(b)).body.removed).toEqual(["added-on-disk"]);
    await until(async () => (await hintsOn(a, "added-on-disk")).status === 404, 3000, "the first replica to forget the removed challenge");
    expect(await listedOn(a)).not.toContain("added-on-disk");
  });

  it("a challenge hidden on one leaves the other's catalogue, and comes back when shown", async () => {
    expect(await listedOn(b)).toContain(SECOND);
    const hide = await a.api.call("PUT", `/admin/challenges/${SECOND}/visibility`, { token: admin.token, body: { hidden: true } });
    expect(hide.status, JSON.stringify(hide.body)).toBe(200);
    await until(async () => !(await listedOn(b)).includes(SECOND), 3000, "the other replica's catalogue to drop the hidden challenge");
    await a.api.call("PUT", `/admin/challenges/${SECOND}/visibility`, { token: admin.token, body: { hidden: false } });
    await until(async () => (await listedOn(b)).includes(SECOND), 3000, "the other replica's catalogue to list it again");
  });

  it("a replica started after a content update brings the others up to date", async () => {
    const before = (await hintsOn(b, SECOND)).body.count as number;
    const yaml = join(content, SECOND, "challenge.yaml");
    writeFileSync(yaml, readFileSync(yaml, "utf8").replace(/^hints:\n/m, 'hints:\n  - "A hint added by an update of the content."\n'));
    // The operator restarts one replica (here: starts a third) instead of reloading anywhere.
    await startReplica("c", databaseUrl);
    for (const r of [a, b]) await until(async () => (await hintsOn(r, SECOND)).body.count === before + 1, 3000, `${r.name} to read the updated challenge`);
  });

  it("a replica whose listening connection dropped reads, once back, the settings and library changed meanwhile", async () => {
    expect((await b.api.call("GET", "/system/notice")).body.maintenance).toBe(false);
    const pid = await until(() => listenerPid(b), 5000, "b's listening connection");
    await probe.query("SELECT pg_terminate_backend($1)", [pid]);
    await until(async () => (await listenerPid(b)) === undefined, 5000, "b's listening connection to go");

    // While b is not listening: maintenance mode saved and the library reloaded, through a.
    const saved = await a.api.call("PUT", "/admin/settings", { token: admin.token, body: { maintenance_mode: true } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    addChallenge("added-while-away");
    expect((await reloadOn(a)).body.added).toEqual(["added-while-away"]);
    // Both events were sent while b was away (it reconnects after a pause of seconds): lost to it.
    expect(await listenerPid(b)).toBeUndefined();
    expect((await b.api.call("GET", "/system/notice")).body.maintenance).toBe(false);

    await until(() => listenerPid(b), 10_000, "b to listen again");
    await until(async () => (await b.api.call("GET", "/system/notice")).body.maintenance === true, 3000, "b to show maintenance mode");
    await until(async () => (await hintsOn(b, "added-while-away")).status === 200, 3000, "b to serve the challenge added while it was away");

    await a.api.call("PUT", "/admin/settings", { token: admin.token, body: { maintenance_mode: false } });
    await until(async () => (await b.api.call("GET", "/system/notice")).body.maintenance === false, 3000, "b to leave maintenance mode");
  });
});
