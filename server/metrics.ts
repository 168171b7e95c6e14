// Prometheus metrics (prom-client) at GET /metrics: HTTP latency by route pattern, deployments
// by state, start latency (start request → ready), check duration, gateway connections, warm
// pool sizes and the process's default metrics. Each platform has its own registry (tests build
// several in one process). Access: with METRICS_TOKEN, `Authorization: Bearer <token>`; without
// one, only a loopback caller that came through no proxy, so it never leaks to the internet by
// default. Every HTTP request also gets its id here (server/http/request-context.ts).
// Over 350 lines: the Prometheus registry and every metric's upkeep in one place, so a metric has
//  one name and one writer.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Kysely } from "kysely";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { ACTIVE_DEPLOYMENT_STATUSES } from "#shared/contract/deployments.ts";
import type { StartDeploymentResult } from "#shared/contract/deployments.ts";
import { safeEqual } from "./core/secrets.ts";
import type { Database } from "./db/schema.ts";
import { pathOf } from "./http/http.ts";
import type { Logger } from "./logger.ts";
import { acceptRequestId, REQUEST_ID_HEADER, runInRequest, type RequestContext } from "./http/request-context.ts";

/** Pool sizes as the warm pool reports them (server/core/deployments/pool.ts, `pool.sizes()`). */
export interface PoolSizeReport {
  challenge_id: string;
  ready: number;
  warming: number;
  target: number;
}

/** What players make the platform keep on disk (server/platform.ts reports it): recordings and
 *  the mail outbox, with the free space where each lives. */
export interface DiskUsageReport {
  what: string;
  bytes: number;
  files: number;
  free: number | null;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function createMetrics({ db, log }: { db: Kysely<Database>; log: Logger }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const http = new Histogram({
    name: "faultline_http_request_duration_seconds",
    help: "HTTP requests by method, route pattern (never the raw URL) and status class",
    labelNames: ["method", "route", "status_class"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });

  new Gauge({
    name: "faultline_deployments",
    help: "Active deployments by state (read from the database on each scrape)",
    labelNames: ["state"] as const,
    registers,
    async collect() {
      // Active states only: they are few and the (status, expires_at) index finds them; ended
      // deployments grow without bound and are not a gauge's business.
      const counts = new Map<string, number>(ACTIVE_DEPLOYMENT_STATUSES.map((s) => [s, 0]));
      try {
        const rows = await db
          .selectFrom("deployments")
          .select(["status", db.fn.countAll<number>().as("n")])
          .where("status", "in", [...ACTIVE_DEPLOYMENT_STATUSES])
          .groupBy("status")
          .execute();
        for (const r of rows) counts.set(r.status, Number(r.n));
      } catch (e) {
        log.warn("metrics: counting deployments failed", e);
      }
      this.reset();
      for (const [state, n] of counts) this.set({ state }, n);
    },
  });

  const startLatency = new Histogram({
    name: "faultline_deployment_start_seconds",
    help: "From a start request to the deployment being ready",
    buckets: [0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 20, 30, 60, 120],
    registers,
  });
  const starts = new Counter({
    name: "faultline_deployment_starts_total",
    help: "Start requests accepted, by how they ended: ready, failed, or untracked (no answer within 10 minutes)",
    labelNames: ["result"] as const,
    registers,
  });

  const checkDuration = new Histogram({
    name: "faultline_check_duration_seconds",
    help: "Grading a submission (the check in the deployment), by result",
    labelNames: ["result"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30],
    registers,
  });

  const uncaught = new Counter({
    name: "faultline_uncaught_errors_total",
    help: "Errors nobody caught (server/process-guard.ts): exceptions and unhandled rejections, by whether the process kept serving or stopped",
    labelNames: ["kind", "outcome"] as const,
    registers,
  });

  let gatewayConnections: (() => number) | null = null;
  new Gauge({
    name: "faultline_gateway_connections",
    help: "Open SSH connections on the gateway of this process",
    registers,
    collect() {
      this.set(gatewayConnections?.() ?? 0);
    },
  });

  let poolSizes: (() => Promise<PoolSizeReport[]>) | null = null;
  new Gauge({
    name: "faultline_warm_pool_deployments",
    help: "Warm pool per challenge: ready (waiting to be claimed), warming (being made) and target",
    labelNames: ["challenge", "state"] as const,
    registers,
    async collect() {
      this.reset();
      if (!poolSizes) return;
      try {
        for (const p of await poolSizes()) {
          this.set({ challenge: p.challenge_id, state: "ready" }, p.ready);
          this.set({ challenge: p.challenge_id, state: "warming" }, p.warming);
          this.set({ challenge: p.challenge_id, state: "target" }, p.target);
        }
      } catch (e) {
        log.warn("metrics: reading the warm pool failed", e);
      }
    },
  });

  let pageCache: (() => { pages: number; bytes: number; hits: number; misses: number }) | null = null;
  new Gauge({
    name: "faultline_page_cache",
    help: "Visitors' pages kept whole (server/http/page-cache.ts): pages and bytes kept, hits and misses since start",
    labelNames: ["what"] as const,
    registers,
    collect() {
      const s = pageCache?.();
      for (const what of ["pages", "bytes", "hits", "misses"] as const) this.set({ what }, s?.[what] ?? 0);
    },
  });

  // Disk used by what players make us write (docs/decisions/016-per-user-bounds.md): a reading
  // costs one row of the database and the free space kept for a second.
  let diskUsage: (() => Promise<DiskUsageReport[]>) | null = null;
  const readDisk = () => (diskUsage ? diskUsage().catch((e) => (log.warn("metrics: reading disk usage failed", e), [])) : Promise.resolve([]));
  const diskGauge = (name: string, help: string, pick: (r: DiskUsageReport) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ["what"] as const,
      registers,
      async collect() {
        this.reset();
        for (const r of await readDisk()) {
          const v = pick(r);
          if (v !== null) this.set({ what: r.what }, v);
        }
      },
    });
  diskGauge(
    "faultline_disk_used_bytes",
    "Bytes kept of what players make the platform write: recordings (all replicas') and this process's mail outbox",
    (r) => r.bytes,
  );
  diskGauge("faultline_disk_files", "Files kept of what players make the platform write: recordings and the mail outbox", (r) => r.files);
  diskGauge("faultline_disk_free_bytes", "Free bytes on the file system of each; below MIN_FREE_DISK_MB nothing more is written there", (r) => r.free);
  const recordingsRefused = new Counter({
    name: "faultline_recordings_refused_total",
    help: "Shells run without a recording, by reason: rate (per user per minute), disk (free space below the floor), quota (nothing private left to remove), error",
    labelNames: ["reason"] as const,
    registers,
  });

  return {
    registry,
    /** What players make us keep on disk (server/platform.ts wires it). */
    setDiskUsage(fn: () => Promise<DiskUsageReport[]>) {
      diskUsage = fn;
    },
    recordingRefused: (reason: string) => recordingsRefused.inc({ reason }),
    /** The page cache's figures (server.ts wires it when it serves the web). */
    setPageCache(fn: () => { pages: number; bytes: number; hits: number; misses: number }) {
      pageCache = fn;
    },
    observeHttp(method: string, route: string, status: number, seconds: number) {
      http.observe({ method: METHODS.has(method) ? method : "OTHER", route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
    },
    /** The gateway's open connections (server.ts wires it once the gateway listens). */
    setGatewayConnections(fn: () => number) {
      gatewayConnections = fn;
    },
    /** The warm pool's sizes per challenge (the deployments service's `pool.sizes()`). */
    setPoolSizes(fn: () => Promise<PoolSizeReport[]>) {
      poolSizes = fn;
    },
    observeStart: (seconds: number, result: "ready" | "failed" | "untracked") => {
      starts.inc({ result });
      if (result === "ready") startLatency.observe(seconds);
    },
    observeCheck: (seconds: number, result: "correct" | "incorrect") => checkDuration.observe({ result }, seconds),
    observeUncaught: (kind: "exception" | "rejection", outcome: "kept" | "exit") => uncaught.inc({ kind, outcome }),
    contentType: registry.contentType,
    render: () => registry.metrics(),
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

const since = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

/** Messages of a deployment's live channel, as far as the start timer reads them. */
interface StatusMessage {
  type: string;
  status?: string;
}

export interface StartTimingDeps<R extends StartDeploymentResult = StartDeploymentResult> {
  start(userId: string, challengeId: string): Promise<R>;
  subscribe(id: string, listener: (m: StatusMessage) => void): () => void;
  row(id: string): Promise<{ status: string } | undefined | null>;
}

/** After this long without ready or failed, a start is counted "untracked" and forgotten. */
const START_WATCH_MS = 10 * 60_000;

/**
 * `deployments.start`, timed from the request to ready: the answer itself when it is ready
 * already (a claimed warm deployment), else the deployment's live messages. The row is read once
 * after subscribing, so a deployment that became ready in between is not missed.
 */
export function timedStart<R extends StartDeploymentResult>(d: StartTimingDeps<R>, metrics: Pick<Metrics, "observeStart">): StartTimingDeps<R>["start"] {
  return async (userId, challengeId) => {
    const t0 = process.hrtime.bigint();
    const result = await d.start(userId, challengeId);
    const id = result.deployment_status.deployment_id;
    if (result.deployment_status.status === "ready") {
      metrics.observeStart(since(t0), "ready");
      return result;
    }
    let done = false;
    const finish = (outcome: "ready" | "failed" | "untracked") => {
      if (done) return;
      done = true;
      unsubscribe();
      clearTimeout(timer);
      metrics.observeStart(since(t0), outcome);
    };
    const unsubscribe = d.subscribe(id, (m) => {
      if (m.type === "deployment_ready" || m.status === "ready") finish("ready");
      else if (m.type === "deployment_error" || m.status === "failed" || m.status === "terminated") finish("failed");
    });
    const timer = setTimeout(() => finish("untracked"), START_WATCH_MS);
    timer.unref();
    void d.row(id).then(
      (row) => {
        if (row?.status === "ready") finish("ready");
        else if (row?.status === "failed" || row?.status === "terminated") finish("failed");
      },
      () => undefined,
    );
    return result;
  };
}

/** `grading.submit`, timed: graded submissions only (refusals throw before any check runs). */
export function timedSubmit<A extends unknown[], R extends { is_correct: boolean }>(
  submit: (...args: A) => Promise<R>,
  metrics: Pick<Metrics, "observeCheck">,
): (...args: A) => Promise<R> {
  return async (...args) => {
    const t0 = process.hrtime.bigint();
    const result = await submit(...args);
    metrics.observeCheck(since(t0), result.is_correct ? "correct" : "incorrect");
    return result;
  };
}

type Next = (err?: unknown) => void;

/**
 * The first middleware of the HTTP server: gives the request its id (a sane incoming
 * X-Request-Id, or a new one), answers with it, runs the rest of the request inside its context
 * and observes its duration under its route pattern: the API's (set by server/api/router.ts),
 * else `webRoute(path)` (the web's route pattern), else "unmatched".
 */
export function requestScope(metrics: Pick<Metrics, "observeHttp">, webRoute: (path: string) => string | undefined, log: Logger) {
  return (req: IncomingMessage, res: ServerResponse, next: Next) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const ctx: RequestContext = { id: acceptRequestId(Array.isArray(incoming) ? incoming[0] : incoming) };
    res.setHeader(REQUEST_ID_HEADER, ctx.id);
    const t0 = process.hrtime.bigint();
    let observed = false;
    const observe = () => {
      if (observed) return;
      observed = true;
      // A listener of the response's events: whatever the target, this must not throw.
      const path = pathOf(req.url);
      const route = ctx.route ?? webRoute(path) ?? "unmatched";
      const seconds = since(t0);
      metrics.observeHttp(req.method ?? "GET", route, res.statusCode, seconds);
      // The access line (debug): path without the query string, which can carry tokens.
      runInRequest(ctx, () =>
        log.debug(`http ${req.method} ${route} ${res.statusCode}`, { method: req.method, route, path, status: res.statusCode, ms: Math.round(seconds * 1000) }),
      );
    };
    res.once("finish", observe);
    res.once("close", observe);
    runInRequest(ctx, () => next());
  };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1)$/;

/** Without METRICS_TOKEN in production, the public port says this (METRICS_PORT serves them). */
export const METRICS_NEED_TOKEN =
  "Metrics are not served on this port without METRICS_TOKEN: set METRICS_TOKEN (at least 24 characters), or METRICS_PORT for a listener on 127.0.0.1 only.\n";

export interface MetricsAccess {
  /** With a token: only `Authorization: Bearer <token>`, from anywhere. */
  token?: string;
  /**
   * Without a token: "loopback" serves loopback callers whose request came through no proxy (a
   * development machine), "none" refuses everyone (production: a reverse proxy on the same host
   * that adds no X-Forwarded-For, nginx's default, makes every visitor look local), "all" serves
   * everyone (the loopback-only METRICS_PORT listener, which only this host can reach).
   */
  withoutToken: "loopback" | "none" | "all";
  clientIp: (req: IncomingMessage) => string;
}

/** GET /metrics, as `MetricsAccess` says. */
export function metricsEndpoint(metrics: Pick<Metrics, "render" | "contentType">, opts: MetricsAccess) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const refuse = (status: number, text: string) => {
      res.statusCode = status;
      res.setHeader("content-type", "text/plain; charset=utf-8");
      if (status === 401) res.setHeader("www-authenticate", 'Bearer realm="metrics"');
      res.end(text);
    };
    if (opts.token) {
      const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "");
      if (!m || !safeEqual(m[1]!.trim(), opts.token)) return refuse(401, "Metrics need the bearer token (METRICS_TOKEN).\n");
    } else if (opts.withoutToken === "none") {
      return refuse(403, METRICS_NEED_TOKEN);
    } else if (opts.withoutToken === "loopback") {
      const proxied = req.headers["x-forwarded-for"] !== undefined || req.headers.forwarded !== undefined;
      if (proxied || !LOOPBACK.test(opts.clientIp(req))) {
        return refuse(403, "Metrics are served to loopback callers only; set METRICS_TOKEN to read them from elsewhere.\n");
      }
    }
    const body = await metrics.render();
    res.statusCode = 200;
    res.setHeader("content-type", metrics.contentType);
    res.setHeader("cache-control", "no-store");
    res.end(body);
  };
}

/** Paths whose route label is remembered (the oldest goes first past it). */
const LABELS_REMEMBERED = 5000;

/**
 * The web's route pattern of a path (e.g. `/challenges/:id`), from the build's route manifest:
 * bounded labels, whatever URLs visitors try. Static files under /assets are one label.
 */

export function webRouteLabels(
  manifest: Record<string, { id: string; parentId?: string; path?: string; index?: boolean } | undefined>,
  match: (routes: RouteNode[], path: string) => { route: RouteNode }[] | null,
): (path: string) => string | undefined {
  const byParent = new Map<string | undefined, RouteNode[]>();
  for (const r of Object.values(manifest)) {
    if (!r) continue;
    const list = byParent.get(r.parentId) ?? [];
    list.push({ id: r.id, path: r.path, index: r.index, children: [] });
    byParent.set(r.parentId, list);
  }
  const tree = (parent: string | undefined): RouteNode[] => (byParent.get(parent) ?? []).map((n) => ({ ...n, children: n.index ? undefined : tree(n.id) }));
  const roots = tree(undefined);
  // Matching walks every route (React Router flattens and ranks them on each call): remember the
  // label of the paths seen, up to a bound, since a few pages take most requests.
  const seen = new Map<string, string | undefined>();
  return (path) => {
    if (path.startsWith("/assets/")) return "/assets/*";
    if (seen.has(path)) return seen.get(path);
    const matches = match(roots, path);
    const label = matches?.length
      ? "/" +
        matches
          .map((m) => m.route.path)
          .filter(Boolean)
          .join("/")
      : undefined;
    if (seen.size >= LABELS_REMEMBERED) seen.delete(seen.keys().next().value!);
    seen.set(path, label);
    return label;
  };
}

export interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  children?: RouteNode[];
}
