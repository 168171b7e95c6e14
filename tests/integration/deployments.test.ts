// The deployments API's rules that need no engine, on SQLite and PostgreSQL: who may start,
// what a bad request gets, the submission rate limit, lookups without a deployment, and the
// polling endpoint's two kinds of caller. (Running deployments: tests/runtime/deployments.test.ts.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";
import { makeSshKey, putSshKey } from "../support/ssh-keys.ts";
import { expectError } from "./assertions.ts";

const NGINX = "nginx-broken-config";
const API_KEY = "k".repeat(32);
const keyDir = mkdtempSync(join(tmpdir(), "faultline-dkeys-"));
/** A fresh key pair (one account per key): its private key file. */
let made = 0;
const newKeyFile = () => makeSshKey(`id${++made}`, "ed25519", { dir: keyDir }).file;
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

describe.each(DATABASES)("deployments API on %s", (kind) => {
  let t: TestPlatform;
  let verified: string; // access token of a verified user with an SSH key
  beforeAll(async () => {
    // No engine: what needs one answers 503, everything before it is checked first.
    t = await createTestPlatform(kind, { env: { RUNTIME: "none", SESSION_DURATION_MINUTES: "45", DEPLOYMENT_GATEWAY_API_KEY: API_KEY } });
    const u = await t.registerVerified();
    verified = (await t.login(u)).access_token;
    const put = await putSshKey((method, path, body) => t.call(method, path, { token: verified, body }), newKeyFile());
    expect(put.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("every deployment route needs a signed-in user", async () => {
    for (const [method, path] of [
      ["GET", "/challenges/active-session"],
      ["GET", `/challenges/${NGINX}/active-session`],
      ["POST", `/challenges/${NGINX}/session/start`],
      ["POST", `/challenges/${NGINX}/session/extend`],
      ["POST", `/challenges/${NGINX}/session/terminate`],
      ["POST", `/challenges/${NGINX}/submit`],
    ] as const) {
      expectError(await t.call(method, path, { body: method === "POST" ? { solution: "x" } : undefined }), 401);
    }
  });

  it("the session duration comes from the configuration", async () => {
    expect((await t.call("GET", "/challenges/config/session-duration")).body).toEqual({ duration_minutes: 45 });
    // No engine, no SSH gateway: its host key cannot be shown (GET /challenges/config/ssh).
    expectError(await t.call("GET", "/challenges/config/ssh"), 503, "The SSH gateway is not running.");
  });

  it("starting needs a verified e-mail (the banner text, shared/rules.ts), then an SSH key; unknown challenges are 404", async () => {
    const unverified = await t.register();
    const token = (await t.login(unverified)).access_token;
    expectError(
      await t.call("POST", `/challenges/${NGINX}/session/start`, { token }),
      403,
      "Email verification required to start challenges. Please check your email and verify your account.",
    );
    const keyless = await t.registerVerified();
    expectError(await t.call("POST", `/challenges/${NGINX}/session/start`, { token: (await t.login(keyless)).access_token }), 400, /SSH key is required/);
    expectError(await t.call("POST", "/challenges/no-such-challenge/session/start", { token: verified }), 404, "Challenge not found");
    expectError(await t.call("POST", "/challenges/..%2Fetc/session/start", { token: verified }), 400);
  });

  it("without an engine, a valid start is refused with 503 and nothing is left active", async () => {
    expectError(await t.call("POST", `/challenges/${NGINX}/session/start`, { token: verified }), 503, /runtime is not available/);
    expect((await t.call("GET", "/challenges/active-session", { token: verified })).body).toEqual({ has_active_session: false, active_session: null });
    expect((await t.call("GET", `/challenges/${NGINX}/active-session`, { token: verified })).body).toEqual({
      deployment_id: null,
      challenge_id: NGINX,
      status: "idle",
      expires_at: null,
      ssh_details: null,
      websocket_url: null,
      error_message: null,
    });
  });

  it("starts are rate-limited per user (20 per 10 minutes)", async () => {
    const u = await t.registerVerified();
    const token = (await t.login(u)).access_token;
    const put = await putSshKey((method, path, body) => t.call(method, path, { token, body }), newKeyFile());
    expect(put.status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await t.call("POST", `/challenges/${NGINX}/session/start`, { token })).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(503));
    expect(statuses[20]).toBe(429);
  });

  it("extend and terminate without a deployment say so", async () => {
    expectError(
      await t.call("POST", `/challenges/${NGINX}/session/extend`, { token: verified }),
      404,
      "No active deployment found. Please start the challenge first.",
    );
    expectError(
      await t.call("POST", `/challenges/${NGINX}/session/terminate`, { token: verified }),
      404,
      "No active deployment found. Please start the challenge first.",
    );
  });

  it("submitting: the body is validated, no deployment is NO_ACTIVE_DEPLOYMENT's message (shared/rules.ts), and submissions are rate-limited per user", async () => {
    const u = await t.registerVerified();
    const token = (await t.login(u)).access_token;
    expectError(await t.call("POST", `/challenges/${NGINX}/submit`, { token, body: {} }), 400, "solution: is required");
    expectError(await t.call("POST", `/challenges/${NGINX}/submit`, { token, body: { solution: "x".repeat(16_385) } }), 400, /at most 16384/);
    for (let i = 0; i < 6; i++) {
      expectError(
        await t.call("POST", `/challenges/${NGINX}/submit`, { token, body: { solution: "fixed" } }),
        400,
        "No active deployment found. Please start the challenge first.",
      );
    }
    const limited = await t.call("POST", `/challenges/${NGINX}/submit`, { token, body: { solution: "fixed" } });
    expectError(limited, 429, /Too many attempts/);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Per user: another user is not affected.
    expectError(await t.call("POST", `/challenges/${NGINX}/submit`, { token: verified, body: { solution: "fixed" } }), 400);
  });

  it("the polling endpoint: the owner's token or the services' API key; a bad id is 400", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    expectError(await t.call("GET", `/deployments/${id}`), 401);
    expectError(await t.call("GET", `/deployments/${id}`, { token: verified }), 404, "Deployment not found");
    expectError(await t.call("GET", `/deployments/${id}`, { headers: { "x-api-key": "wrong" } }), 401, "Invalid API key");
    expectError(await t.call("GET", `/deployments/${id}`, { headers: { "x-api-key": API_KEY } }), 404, "Deployment not found");
    expectError(await t.call("GET", "/deployments/not-a-uuid", { token: verified }), 400);
  });
});
