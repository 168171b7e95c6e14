// Observability: Prometheus metrics at /metrics, JSON log lines (LOG_FORMAT=json) and
// one request id through web → API → core. server.ts runs in a process of its own (as in
// production; see web-hardening.test.ts for why) with the engine at a closed loopback port, so a
// start is accepted, runs in the background and fails: a real deployment's life, without Docker.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer as createHttpServer } from "node:http";
import { ACTIVE_DEPLOYMENT_STATUSES } from "#shared/contract/deployments.ts";
import { createLogger, jsonLine } from "#server/logger.ts";
import { metricsEndpoint } from "#server/metrics.ts";
import { runInRequest } from "#server/http/request-context.ts";
import { apiAt, makePlayer, type Api } from "../support/server.ts";

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

let base: string;
let api: Api;
let dataDir: string;
let child: ChildProcess;
const lines: Record<string, any>[] = [];
const raw: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "faultline-obs-"));
  child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: "0",
      SSH_PORT: "0",
      RUNTIME: "docker",
      DOCKER_HOST: `tcp://127.0.0.1:${await closedPort()}`,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PUBLIC_URL: "http://127.0.0.1:3999",
      LOG_LEVEL: "debug",
      LOG_FORMAT: "json",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let buffered = "";
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (c: Buffer) => {
      buffered += c;
      let nl: number;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        raw.push(line);
        try {
          const entry = JSON.parse(line);
          lines.push(entry);
          const m = /faultline listening on http:\/\/[^:]+:(\d+)/.exec(entry.msg ?? "");
          if (m) resolve(Number(m[1]));
        } catch {
          // not a log line (a library's own output): kept in `raw` only
        }
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`server exited (${code}) before listening:\n${raw.join("\n")}`)));
  });
  base = `http://127.0.0.1:${port}`;
  api = apiAt(base);
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const until = async (cond: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** A metric's samples as `labels → value` (the text exposition format). */
function samples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`).exec(line);
    if (m) out.set(m[1] ?? "", Number(m[2]));
  }
  return out;
}

describe("request ids", () => {
  it("a sane X-Request-Id is kept and answered; anything else is replaced by a fresh id", async () => {
    const kept = await fetch(`${base}/api/v1/stats`, { headers: { "x-request-id": "edge-7f3a.01:x" } });
    expect(kept.headers.get("x-request-id")).toBe("edge-7f3a.01:x");
    for (const bad of ["has space", "x".repeat(200), "<script>", 'a"b', "-starts-with-dash"]) {
      const res = await fetch(`${base}/api/v1/stats`, { headers: { "x-request-id": bad } });
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    const none = await fetch(`${base}/challenges`);
    expect(none.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a page's web line and the API lines of its loader share one id", async () => {
    const id = `web-${Date.now()}`;
    // With a cookie the page is rendered for this request (not a visitor's kept page): its loader runs.
    const res = await fetch(`${base}/challenges`, { headers: { "x-request-id": id, cookie: "any=1" } });
    expect(res.status).toBe(200);
    await res.text();
    await until(() => lines.some((l) => l.request_id === id && /^http /.test(l.msg)));
    const mine = lines.filter((l) => l.request_id === id);
    expect(mine.find((l) => /^http /.test(l.msg))).toMatchObject({ level: "debug", fields: { route: "/challenges", status: 200 } });
    expect(mine.some((l) => l.msg === "api GET /api/v1/challenges/ 200")).toBe(true);
  });

  it("a start's API line and the core's line about its deployment share one id", async () => {
    const player = await makePlayer(api, dataDir);
    const id = `start-${Date.now()}`;
    const res = await api.call("POST", "/challenges/nginx-broken-config/session/start", { token: player.token, headers: { "x-request-id": id } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The background deploy was launched by the request, so its failure is logged under its id.
    await until(() => lines.some((l) => l.request_id === id && /^deployment .* failed/.test(l.msg)), 20_000);
    expect(lines.some((l) => l.request_id === id && l.msg.startsWith("api POST /api/v1/challenges/:id/session/start 201"))).toBe(true);
  });
});

describe("JSON log lines", () => {
  it("every line the server wrote is one JSON object with time, level and msg", () => {
    expect(lines.length).toBeGreaterThan(3);
    expect(raw.filter((l) => l.trim() && !l.startsWith("{"))).toEqual([]);
    for (const l of lines) {
      expect(Object.keys(l).slice(0, 3)).toEqual(["time", "level", "msg"]);
      expect(new Date(l.time).toISOString()).toBe(l.time);
      expect(["debug", "info", "warn", "error"]).toContain(l.level);
    }
  });

  it("shapes: fields for data, err for an error, request_id inside a request; text format unchanged", () => {
    const at = new Date("2026-01-02T03:04:05.000Z");
    expect(JSON.parse(jsonLine("info", "hello", { a: 1 }, undefined, at))).toEqual({ time: at.toISOString(), level: "info", msg: "hello", fields: { a: 1 } });
    const e = JSON.parse(jsonLine("error", "boom", new Error("bad"), "r1", at));
    expect(e).toMatchObject({ level: "error", msg: "boom", request_id: "r1", err: { name: "Error", message: "bad", stack: expect.stringContaining("bad") } });
    const got: string[] = [];
    const log = createLogger("debug", "text", (l) => got.push(l));
    runInRequest({ id: "abc" }, () => log.warn("careful", { n: 2 }));
    log.info("outside");
    expect(got[0]).toMatch(/^\S+ WARN \[req abc\] careful \{"n":2\}$/);
    expect(got[1]).toMatch(/^\S+ INFO outside$/);
  });
});

describe("/metrics", () => {
  it("is served to loopback, not through a proxy or with a wrong token", async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
    const proxied = await fetch(`${base}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(proxied.status).toBe(403);
    expect(await proxied.text()).toContain("METRICS_TOKEN");
  });

  it("with METRICS_TOKEN: the bearer token only, from anywhere", async () => {
    const serve = metricsEndpoint(
      { render: async () => "up 1\n", contentType: "text/plain; version=0.0.4; charset=utf-8" },
      { token: "s3cret-token", withoutToken: "none", clientIp: () => "203.0.113.7" },
    );
    const server = createHttpServer((req, res) => void serve(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/metrics`;
    try {
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      const ok = await fetch(url, { headers: { authorization: "Bearer s3cret-token" } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe("up 1\n");
    } finally {
      server.close();
    }
  });

  it("counts requests by route pattern and status class, deployments by state, starts and the process", async () => {
    for (let i = 0; i < 3; i++) await (await fetch(`${base}/api/v1/challenges/no-such-${i}`)).text();
    // A visitor's second visit is served from the kept page (server/http/page-cache.ts).
    for (let i = 0; i < 2; i++) await (await fetch(`${base}/leaderboard`)).text();
    const player = await makePlayer(api, dataDir);
    const start = await api.call("POST", "/challenges/nginx-broken-config/session/start", { token: player.token });
    expect(start.status).toBe(201);
    // Until the background deploy failed (the engine's port is closed).
    await until(
      async () => (await api.call("GET", "/challenges/nginx-broken-config/active-session", { token: player.token })).body?.deployment?.status !== "queued",
      1_000,
    ).catch(() => undefined);
    let text = "";
    await until(async () => {
      text = await (await fetch(`${base}/metrics`)).text();
      return (samples(text, "faultline_deployment_starts_total").get('{result="failed"}') ?? 0) >= 1;
    }, 20_000);
    const http = samples(text, "faultline_http_request_duration_seconds_count");
    expect(http.get('{method="GET",route="/api/v1/challenges/:id",status_class="4xx"}')).toBeGreaterThanOrEqual(3);
    expect(http.get('{method="GET",route="/leaderboard",status_class="2xx"}')).toBeGreaterThanOrEqual(1);
    expect(http.get('{method="POST",route="/api/v1/challenges/:id/session/start",status_class="2xx"}')).toBeGreaterThanOrEqual(1);
    // Bounded: no raw URL ever becomes a label.
    expect(text).not.toContain("no-such-");
    const deployments = samples(text, "faultline_deployments");
    expect([...deployments.keys()].sort()).toEqual(ACTIVE_DEPLOYMENT_STATUSES.map((s) => `{state="${s}"}`).sort());
    expect(text).toContain("# TYPE faultline_deployment_start_seconds histogram");
    expect(text).toContain("# TYPE faultline_check_duration_seconds histogram");
    expect(samples(text, "faultline_gateway_connections").get("")).toBe(0);
    expect(text).toContain("# TYPE faultline_warm_pool_deployments gauge");
    const pages = samples(text, "faultline_page_cache");
    expect(pages.get('{what="hits"}')).toBeGreaterThanOrEqual(1);
    expect(pages.get('{what="pages"}')).toBeGreaterThanOrEqual(1);
    expect(text).toContain("process_cpu_user_seconds_total");
    expect(text).toContain("nodejs_eventloop_lag_seconds");
  });
});

// The API reference page needs the built web, which this file's server already serves.
describe("/docs/api", () => {
  it("renders every documented operation, grouped by tag, without JavaScript", async () => {
    const doc = await (await fetch(`${base}/api/v1/openapi.json`)).json();
    const res = await fetch(`${base}/docs/api`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const operations = Object.values(doc.paths as Record<string, object>).reduce<number>((n, item) => n + Object.keys(item).length, 0);
    expect(html.match(/data-testid="api-operation"/g)?.length).toBe(operations);
    for (const t of doc.tags) expect(html).toContain(`>${t.name}</h2>`);
    expect(html).toContain("POST /challenges/{id}/submit");
    expect(html).toContain("username_or_email");
    expect(html).toContain("{&quot;detail&quot;: ");
    const docs = await (await fetch(`${base}/docs`)).text();
    expect(docs).toContain('href="/docs/api"');
  });
});
