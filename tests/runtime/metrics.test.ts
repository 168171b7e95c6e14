// /metrics against a real deployment: the start → ready histogram and the check
// duration observe a real start on dockerd and a real check; while it runs, the deployments gauge
// counts it as ready. The server is the real one (API only) on loopback, so /metrics answers.
import { afterAll, beforeAll, expect, it } from "vitest";
import { HOST, startTestServer, waitForStatus } from "../support/server.ts";

const NGINX = "nginx-broken-config";
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const sample = (text: string, line: RegExp) => Number(line.exec(text)?.[1] ?? NaN);

it("a deployment's start latency, its state and its check are measured", async () => {
  const player = await server.player();
  const call = (method: string, path: string, body?: unknown) => server.api.call(method, path, { token: player.token, body });
  expect((await call("POST", `/challenges/${NGINX}/session/start`, {})).status).toBe(201);
  await waitForStatus(server.api, player.token, NGINX, (s) => s === "ready", 120_000);
  try {
    const graded = await call("POST", `/challenges/${NGINX}/submit`, { solution: "Nothing fixed yet, just looking." });
    expect(graded.status).toBe(200);
    const text = await (await fetch(`http://${HOST}:${server.port}/metrics`)).text();
    expect(sample(text, /^faultline_deployment_start_seconds_count (\S+)$/m)).toBe(1);
    const sum = sample(text, /^faultline_deployment_start_seconds_sum (\S+)$/m);
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(120);
    expect(sample(text, /^faultline_deployment_starts_total\{result="ready"\} (\S+)$/m)).toBe(1);
    expect(sample(text, /^faultline_deployments\{state="ready"\} (\S+)$/m)).toBe(1);
    expect(sample(text, /^faultline_check_duration_seconds_count\{result="incorrect"\} (\S+)$/m)).toBe(1);
  } finally {
    await call("POST", `/challenges/${NGINX}/session/terminate`, {});
  }
});
