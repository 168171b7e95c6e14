// Health: what /status, GET /api/v1/health and /healthz report. Each part of the platform is
// measured for real (a query, the engine's ping and its image list, the SSH gateway's banner, the
// worker's heartbeat), each with a short timeout, and the result is cached for a few seconds so
// a flood of status requests costs one measurement. The report holds status words, counts and
// times only: never an error message, a path or an address (it is public).
import { connect } from "node:net";
import { sql } from "kysely";
import type { Db } from "#server/db/index.ts";
import type { ComponentStatus, HealthReport, OverallStatus } from "#shared/contract/health.ts";
import type { Runtime } from "#server/runtime/types.ts";

export interface HealthDeps {
  db: Db;
  /** null: no engine in this installation (RUNTIME=none). */
  runtime: Pick<Runtime, "ping" | "missingImages"> | null;
  /** The images the catalogue's challenges run (read at each check: the catalogue may reload). */
  images: () => string[];
  /** When the worker last finished a loop (epoch ms); null while it has not (or is not started). */
  workerLastTick: () => number | null;
  /** Which of the gateway and the worker this replica runs (ROLE); one it does not run is
   *  "disabled" here, its health is the other replicas' to report. Default: both. */
  roles?: { ssh: boolean; worker: boolean };
  /** Where a change of the overall status goes, with what the public report leaves out (which images). */
  log?: { warn(message: string): void; info(message: string): void };
  timeoutMs?: number;
  cacheMs?: number;
  /** A worker whose last loop is older than this is down (it loops every second). */
  workerStaleMs?: number;
  now?: () => number;
}

export const HEALTH_TIMEOUT_MS = 1500;
export const HEALTH_CACHE_MS = 3000;
export const WORKER_STALE_MS = 30_000;

export function createHealth({
  db,
  runtime,
  images,
  workerLastTick,
  roles = { ssh: true, worker: true },
  log,
  timeoutMs = HEALTH_TIMEOUT_MS,
  cacheMs = HEALTH_CACHE_MS,
  workerStaleMs = WORKER_STALE_MS,
  now = Date.now,
}: HealthDeps) {
  let gateway: { host: string; port: number } | null = null;
  let cached: { at: number; report: Promise<HealthReport> } | null = null;
  let lastSaid = "";
  let missingNames: string[] = [];

  const within = <T>(p: Promise<T>) => withTimeout(p, timeoutMs);

  async function database(): Promise<{ status: ComponentStatus; running: number | null }> {
    try {
      await within(sql`select 1`.execute(db));
    } catch {
      return { status: "down", running: null };
    }
    const running = await within(
      db
        .selectFrom("deployments")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("active_key", "is not", null)
        .executeTakeFirst(),
    ).then(
      (r) => Number(r?.n ?? 0),
      () => null,
    );
    return { status: "ok", running };
  }

  async function engine(): Promise<HealthReport["components"]["runtime"]> {
    const expected = [...new Set(images())];
    if (!runtime) return { status: "disabled", engine: "disabled", images_expected: expected.length, images_missing: null };
    try {
      await within(runtime.ping());
    } catch {
      return { status: "down", engine: "down", images_expected: expected.length, images_missing: null };
    }
    const missing = await within(runtime.missingImages(expected)).then(
      (m) => ((missingNames = m), m.length),
      () => null,
    );
    return { status: missing === 0 ? "ok" : "degraded", engine: "ok", images_expected: expected.length, images_missing: missing };
  }

  async function sshGateway(): Promise<ComponentStatus> {
    if (!runtime || !roles.ssh) return "disabled";
    if (!gateway) return "down";
    return (await sshBanner(gateway, timeoutMs)) ? "ok" : "down";
  }

  function worker(): HealthReport["components"]["worker"] {
    if (!runtime || !roles.worker) return { status: "disabled", last_tick_at: null };
    const last = workerLastTick();
    if (last === null) return { status: "down", last_tick_at: null };
    return { status: now() - last <= workerStaleMs ? "ok" : "down", last_tick_at: new Date(last).toISOString() };
  }

  async function measure(): Promise<HealthReport> {
    const at = now();
    const [db_, rt, gw] = await Promise.all([database(), engine(), sshGateway()]);
    const components = { database: { status: db_.status }, runtime: rt, gateway: { status: gw }, worker: worker() };
    const parts = Object.values(components).map((c) => c.status);
    const status: OverallStatus = db_.status !== "ok" ? "down" : parts.every((s) => s === "ok" || s === "disabled") ? "ok" : "degraded";
    const report = { status, checked_at: new Date(at).toISOString(), components, deployments_running: db_.running };
    say(report);
    return report;
  }

  /** Tells the operator when the overall status changes, naming what is not ok. */
  function say(r: HealthReport) {
    const bad = Object.entries(r.components)
      .filter(([, c]) => c.status !== "ok" && c.status !== "disabled")
      .map(([name, c]) => `${name} ${c.status}`);
    if (r.components.runtime.images_missing) bad.push(`images missing: ${missingNames.join(", ")}`);
    const line = bad.length ? `health: ${r.status} (${bad.join("; ")})` : `health: ${r.status}`;
    if (line === lastSaid) return;
    if (lastSaid || r.status !== "ok") {
      if (r.status === "ok") log?.info(line);
      else log?.warn(line);
    }
    lastSaid = line;
  }

  return {
    /** The latest report: measured now, or the one measured within the last few seconds
     *  (requests arriving during a measurement share it). */
    check(): Promise<HealthReport> {
      if (cached && now() - cached.at < cacheMs) return cached.report;
      const report = measure();
      cached = { at: now(), report };
      return report;
    },
    /** Where the SSH gateway listens (server.ts, once it does); checked by reading its banner. */
    gatewayListening(address: { host: string; port: number }) {
      const wildcard = address.host === "0.0.0.0" ? "127.0.0.1" : address.host === "::" ? "::1" : address.host;
      gateway = { host: wildcard, port: address.port };
      cached = null;
    },
  };
}
export type Health = ReturnType<typeof createHealth>;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timed out")), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Whether an SSH server answers at the address: a TCP connect that reads its version line. */
export function sshBanner(address: { host: string; port: number }, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = "";
    const socket = connect({ host: address.host, port: address.port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      seen += chunk;
      if (seen.includes("\n") || seen.length > 255) done(/^SSH-2\.0-/m.test(seen));
    });
    socket.on("error", () => done(false));
    socket.on("close", () => done(false));
  });
}
