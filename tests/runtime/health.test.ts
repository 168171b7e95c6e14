// Health against the real engine: the server (its own process, with the web build) reaches dockerd
// through a unix-socket proxy of this test's own (DOCKER_HOST), so the engine can stop, hang and
// come back from the server's point of view while the shared dockerd keeps running for everyone
// else. /status, GET /api/v1/health and /healthz must tell within seconds. A catalogue challenge
// whose image was never built makes the runtime degraded.
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHALLENGES_DIR } from "#server/library/challenges.ts";
import { HOST, spawnServer } from "../support/server.ts";

const ENGINE_SOCKET = "/var/run/docker.sock";
const DISK = "disk-full-deleted-log";
const NGINX = "nginx-broken-config";
/** The health report is cached 3 s and each check times out after 1.5 s: well within this. */
const WITHIN_MS = 10_000;

/** A proxy in front of dockerd's socket that can forward, hang (accept and say nothing) or stop. */
function engineProxy(path: string) {
  let mode: "forward" | "hang" = "forward";
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    client.on("error", () => client.destroy());
    if (mode === "hang") return;
    const engine = createConnection(ENGINE_SOCKET);
    open.add(engine);
    engine.on("close", () => open.delete(engine));
    engine.on("error", () => client.destroy());
    client.on("close", () => engine.destroy());
    engine.on("close", () => client.destroy());
    client.pipe(engine);
    engine.pipe(client);
  });
  const cut = () => {
    for (const s of open) s.destroy();
  };
  return {
    listen: () => new Promise<void>((resolve) => server.listen(path, resolve)),
    /** The engine stops answering: connections it had are cut, new ones get no answer. */
    hang() {
      mode = "hang";
      cut();
    },
    forward() {
      mode = "forward";
      cut();
    },
    /** The engine is gone: the socket closes and disappears. */
    stop: () =>
      new Promise<void>((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}

type Running = { base: string; stop(): Promise<void> };

async function startPlatform(dockerSocket: string, challenges: string[]): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), "faultline-health-"));
  const content = join(dataDir, "challenges");
  for (const [from, to] of challenges.map((c) => c.split("=>") as [string, string?])) {
    cpSync(join(CHALLENGES_DIR, from), join(content, to ?? from), { recursive: true });
  }
  const server = spawnServer(dataDir, { DOCKER_HOST: `unix://${dockerSocket}`, CHALLENGES_DIR: content });
  const { port } = await server.ready;
  return {
    base: `http://${HOST}:${port}`,
    async stop() {
      const exited = new Promise((r) => server.child.once("exit", r));
      server.child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Seen {
  healthz: number;
  healthzBody: string;
  health: any;
  page: string;
}

async function look(base: string): Promise<Seen> {
  const z = await fetch(`${base}/healthz`);
  const h = await fetch(`${base}/api/v1/health`);
  const p = await fetch(`${base}/status`);
  return { healthz: z.status, healthzBody: await z.text(), health: await h.json(), page: await p.text() };
}

/** Looks until `ok` holds (or fails after `ms`, showing the last look). */
async function until(base: string, ok: (s: Seen) => boolean, ms = WITHIN_MS): Promise<Seen & { afterMs: number }> {
  const t0 = Date.now();
  let last: Seen | undefined;
  while (Date.now() - t0 < ms) {
    last = await look(base);
    if (ok(last)) return { ...last, afterMs: Date.now() - t0 };
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not reached within ${ms} ms; last seen: ${JSON.stringify(last?.health)} /healthz ${last?.healthz}`);
}

/** The status page's row for a component, as rendered (works without JavaScript). */
const pageSays = (page: string, id: string, status: string) => new RegExp(`data-testid="status-${id}" data-status="${status}"`).test(page);

describe("health against the engine", () => {
  const dir = mkdtempSync(join(tmpdir(), "faultline-engine-proxy-"));
  const socket = join(dir, "docker.sock");
  const proxy = engineProxy(socket);
  let platform: Running;

  beforeAll(async () => {
    expect(existsSync(ENGINE_SOCKET), "dockerd's socket").toBe(true);
    await proxy.listen();
    platform = await startPlatform(socket, [DISK, NGINX]);
  });
  afterAll(async () => {
    await platform?.stop();
    await proxy.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  it("healthy: ok everywhere, /healthz 200, the page says operational", async () => {
    const seen = await until(platform.base, (s) => s.health.status === "ok", 60_000);
    expect(seen.healthz).toBe(200);
    expect(seen.healthzBody).toBe("ok\n");
    expect(seen.health.components).toEqual({
      database: { status: "ok" },
      runtime: { status: "ok", engine: "ok", images_expected: 2, images_missing: 0 },
      gateway: { status: "ok" },
      worker: { status: "ok", last_tick_at: expect.any(String) },
    });
    expect(seen.health.deployments_running).toBe(0);
    expect(pageSays(seen.page, "overall", "ok")).toBe(true);
    for (const id of ["database", "runtime", "gateway", "worker"]) expect(pageSays(seen.page, id, "ok"), id).toBe(true);
    expect(seen.page).toContain("All systems operational.");
    expect(seen.page).toMatch(/data-testid="status-checked-at"/);
    // Nothing internal in the public answers: no socket path, no address, no error text.
    expect(JSON.stringify(seen.health)).not.toMatch(/\/|sock|error/i);
  });

  it("an engine that hangs: degraded within seconds (each check has a short timeout), ok again once it answers", async () => {
    proxy.hang();
    // The three answers of one look may straddle a new measurement: wait until all say so.
    const down = await until(platform.base, (s) => s.healthz === 503 && s.health.status === "degraded" && pageSays(s.page, "runtime", "down"));
    expect(down.afterMs).toBeLessThan(WITHIN_MS);
    expect(down.health.components.runtime).toMatchObject({ status: "down", engine: "down" });
    expect(down.healthz).toBe(503);
    expect(down.healthzBody).toBe("degraded\n");
    expect(pageSays(down.page, "runtime", "down")).toBe(true);
    expect(down.page).toContain("engine not answering");

    proxy.forward();
    const back = await until(platform.base, (s) => s.healthz === 200 && s.health.status === "ok");
    expect(back.healthz).toBe(200);
  });

  it("an engine that stops: /status, the JSON and /healthz turn degraded within seconds", async () => {
    await proxy.stop();
    const down = await until(platform.base, (s) => s.healthz === 503 && s.health.status === "degraded" && pageSays(s.page, "overall", "degraded"));
    expect(down.afterMs).toBeLessThan(WITHIN_MS);
    expect(down.health.components.runtime).toEqual({ status: "down", engine: "down", images_expected: 2, images_missing: null });
    // The rest still runs: the database, the gateway (it only needs the engine once a user is in).
    expect(down.health.components.database).toEqual({ status: "ok" });
    expect(down.health.components.gateway).toEqual({ status: "ok" });
    expect(pageSays(down.page, "runtime", "down")).toBe(true);
    expect(down.page).toContain("Some systems are degraded");
    expect(JSON.stringify(down.health)).not.toMatch(/\/|sock|error|ENOENT|ECONN/i);
  });
});

describe("a catalogue challenge whose image is missing", () => {
  let platform: Running;
  beforeAll(async () => {
    // A copy of a real challenge under a new name: its image (named after the folder) was never built.
    platform = await startPlatform(ENGINE_SOCKET, [DISK, `${NGINX}=>health-never-built`]);
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it("makes the runtime degraded and says how many images are missing", async () => {
    const seen = await until(platform.base, (s) => s.health.components.worker.status === "ok" && s.health.components.gateway.status === "ok", 60_000);
    expect(seen.health.status).toBe("degraded");
    expect(seen.health.components.runtime).toEqual({ status: "degraded", engine: "ok", images_expected: 2, images_missing: 1 });
    expect(seen.healthz).toBe(503);
    expect(pageSays(seen.page, "runtime", "degraded")).toBe(true);
    expect(seen.page).toContain("1 of 2 challenge images missing");
    // Which image is not said: the count is enough for the public, the server log has the rest.
    expect(JSON.stringify(seen.health)).not.toContain("never-built");
  });
});
