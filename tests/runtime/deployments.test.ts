// Deployments end to end against a real dockerd, the real server (API, live channel, SSH
// gateway, worker) and the real OpenSSH client: start → ready (pushed live) → ssh with the
// registered key → fix → submit → graded; who may get in; the rules of starting, extending and
// terminating; expiry; and a kill -9 of the server mid-deployment and when ready.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LABEL } from "#server/runtime/policy.ts";
import { clientOptions, makeKey, runClient, waitFor } from "../gateway/support.ts";
import { challengesFixture } from "../support/platform.ts";
import { HOST, apiAt, makePlayer, openLive, spawnServer, startTestServer, waitForStatus, type Player } from "../support/server.ts";

const DISK = "disk-full-deleted-log";
const NGINX = "nginx-broken-config";
const docker = new Docker();
const INFO = ["-o", "LogLevel=INFO"];

type Server = Awaited<ReturnType<typeof startTestServer>>;

const ssh = (port: number, who: { key: Player["key"] }, user: string, command: string, input?: string, extra: string[] = []) =>
  runClient("ssh", [...clientOptions(who.key, extra), "-p", String(port), `${user}@${HOST}`, command], { input, timeoutMs: 60_000 });

/** Containers and networks of one installation (its instance id labels them). */
async function engineObjects(dataDir: string) {
  const instance = readFileSync(join(dataDir, "instance-id"), "utf8").trim();
  const filter = { label: [`${LABEL.instance}=${instance}`] };
  const containers = await docker.listContainers({ all: true, filters: filter });
  const networks = await docker.listNetworks({ filters: filter });
  return { containers, networks, deployments: new Set([...containers, ...networks].map((x) => (x.Labels ?? {})[LABEL.deployment])) };
}

describe("a player's journey", () => {
  let server: Server;
  let alice: Player;
  let bob: Player;
  let deploymentId: string;

  beforeAll(async () => {
    server = await startTestServer();
    [alice, bob] = await Promise.all([server.player(), server.player()]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("start answers at once; the status reaches ready live over the WebSocket", async () => {
    const t0 = performance.now();
    const started = await server.api.call("POST", `/challenges/${DISK}/session/start`, { token: alice.token });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(performance.now() - t0).toBeLessThan(5000); // answered before the environment exists
    deploymentId = started.body.deployment_status.deployment_id;
    expect(started.body.deployment_status.status).toBe("queued");
    expect(Date.parse(started.body.expires_at) - Date.now()).toBeGreaterThan(29 * 60_000);

    const live = openLive(server.api.base, deploymentId, alice.token);
    const ready = await live.until((m) => m.type === "deployment_ready");
    // With the gateway's host key, to check a first connection against.
    expect(ready.ssh_details).toEqual({ ssh_host: HOST, ssh_port: server.sshPort, ssh_user: DISK, host_key_fingerprint: server.gateway!.hostKeyFingerprint });
    const statuses = live.messages.map((m) => m.status);
    expect(statuses).toContain("ready");
    expect(live.messages.some((m) => m.type === "progress_update")).toBe(true);
    live.ws.close();

    const session = await server.api.call("GET", `/challenges/${DISK}/active-session`, { token: alice.token });
    expect(session.body).toMatchObject({ deployment_id: deploymentId, status: "ready", websocket_url: `/ws/deployments/${deploymentId}` });
    const any = await server.api.call("GET", "/challenges/active-session", { token: alice.token });
    expect(any.body).toMatchObject({ has_active_session: true, active_session: { challenge_id: DISK, status: "ready", deployment_id: deploymentId } });
    // The scenario's secret values never reach the user.
    expect(JSON.stringify(session.body)).not.toMatch(/digest|journals/);
  });

  it("the live channel refuses a missing token and other users", async () => {
    const none = openLive(server.api.base, deploymentId, null);
    expect(await none.closed).toEqual({ code: 4401, reason: "Authentication required" });
    const other = openLive(server.api.base, deploymentId, bob.token);
    expect((await other.closed).code).toBe(4404);
    expect(other.messages).toEqual([]);
  });

  it("the live channel caps the connections one user holds open", async () => {
    const many = Array.from({ length: 16 }, () => openLive(server.api.base, deploymentId, alice.token));
    await Promise.all(many.map((l) => l.until((m) => m.type === "deployment_update")));
    const extra = openLive(server.api.base, deploymentId, alice.token);
    expect(await extra.closed).toEqual({ code: 4429, reason: "Too many live connections" });
    many[0]!.ws.close();
    await many[0]!.closed;
    await waitFor("a free slot", async () => {
      const again = openLive(server.api.base, deploymentId, alice.token);
      const first = await Promise.race([again.until((m) => m.type === "deployment_update", 2000).then(() => "open"), again.closed.then(() => "closed")]);
      again.ws.close();
      return first === "open";
    });
    for (const l of many) l.ws.close();
  });

  it("polling fallback: the owner's token or the gateway key, nobody else", async () => {
    const own = await server.api.call("GET", `/deployments/${deploymentId}`, { token: alice.token });
    expect(own.body).toMatchObject({ deployment_id: deploymentId, status: "ready", ssh_details: { ssh_port: server.sshPort }, error_message: null });
    expect((await server.api.call("GET", `/deployments/${deploymentId}`, { token: bob.token })).status).toBe(404);
    expect((await server.api.call("GET", `/deployments/${deploymentId}`)).status).toBe(401);
    expect((await server.api.call("GET", `/deployments/${deploymentId}`, { headers: { "x-api-key": "guess" } })).status).toBe(401);
  });

  it("a wrong submission is not correct and says why", async () => {
    const r = await server.api.call("POST", `/challenges/${DISK}/submit`, {
      token: alice.token,
      body: { solution: "I rebooted it", deployment_uid: deploymentId },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ is_correct: false, points_awarded: 0 });
    expect(r.body.feedback).toMatch(/free|space/i);
  });

  it("ssh with the registered key lands in the deployment; the fix there makes the submission correct and awards the points once", async () => {
    const who = await ssh(server.sshPort, alice, "anything", "hostname; id -un; df -P /srv | tail -1");
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout.split("\n").slice(0, 2)).toEqual(["ledger01", "root"]);

    const fix = await ssh(server.sshPort, alice, DISK, "bash -s", readFileSync(`challenges/${DISK}/solution.sh`, "utf8"));
    expect(fix.code, fix.stdout + fix.stderr).toBe(0);

    const r = await server.api.call("POST", `/challenges/${DISK}/submit`, {
      token: alice.token,
      body: { solution: "ledgerd held the deleted log open; truncated it via /proc and restarted ledgerd", deployment_uid: deploymentId },
    });
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ is_correct: true, points_awarded: 200, already_solved: false, rank: 1, total_points: 200 });
    expect(r.body.solve_time_seconds).toBeGreaterThanOrEqual(0);
    expect(r.body.achievements_unlocked.map((a: { title: string }) => a.title)).toContain("First Blood");

    const again = await server.api.call("POST", `/challenges/${DISK}/submit`, { token: alice.token, body: { solution: "again" } });
    expect(again.body).toMatchObject({ is_correct: true, points_awarded: 0, already_solved: true, achievements_unlocked: [] });
    const profile = await server.api.call("GET", `/users/${alice.username}`);
    expect(profile.body).toMatchObject({ total_points: 200, challenges_completed: 1 });
  });

  it("another user's key, an unregistered key or a user without a deployment cannot get in", async () => {
    const stranger = { key: await makeKey(server.dataDir, "stranger") };
    for (const who of [bob, stranger]) {
      const r = await ssh(server.sshPort, who, DISK, "hostname", undefined, INFO);
      expect(r.code).toBe(255);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/No running faultline deployment|Permission denied/);
    }
  });

  it("one active deployment per challenge, one at a time on the free plan; start needs a verified e-mail and an SSH key", async () => {
    const same = await server.api.call("POST", `/challenges/${DISK}/session/start`, { token: alice.token });
    expect(same.status).toBe(409);
    // Alice is on the free plan: one deployment at a time (server/core/plans.ts).
    const other = await server.api.call("POST", `/challenges/${NGINX}/session/start`, { token: alice.token });
    expect(other.status).toBe(403);
    expect(other.body.detail).toMatch(/^The free plan runs one deployment at a time: terminate your deployment of ".+" first\. Pro runs up to 3 at once\.$/);

    const unverified = await server.player({ verify: false });
    const r1 = await server.api.call("POST", `/challenges/${DISK}/session/start`, { token: unverified.token });
    expect(r1).toEqual({ status: 403, body: { detail: "Email verification required to start challenges. Please check your email and verify your account." } });
    const keyless = await server.player({ key: false });
    const r2 = await server.api.call("POST", `/challenges/${DISK}/session/start`, { token: keyless.token });
    expect(r2.status).toBe(400);
    expect(r2.body.detail).toMatch(/SSH key is required/);
    expect((await server.api.call("POST", "/challenges/no-such-thing/session/start", { token: alice.token })).status).toBe(404);
    expect((await server.api.call("POST", `/challenges/${DISK}/session/start`)).status).toBe(401);
    const noDeployment = await server.api.call("POST", `/challenges/${NGINX}/submit`, { token: bob.token, body: { solution: "x" } });
    expect(noDeployment).toEqual({ status: 400, body: { detail: "No active deployment found. Please start the challenge first." } });
  });

  it("extend adds the session duration to a ready deployment", async () => {
    const before = await server.api.call("GET", `/challenges/${DISK}/active-session`, { token: alice.token });
    const r = await server.api.call("POST", `/challenges/${DISK}/session/extend`, { token: alice.token });
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.expires_at) - Date.parse(before.body.expires_at)).toBe(30 * 60_000);
    expect((await server.api.call("POST", `/challenges/${NGINX}/session/extend`, { token: alice.token })).status).toBe(404);
    const duration = await server.api.call("GET", "/challenges/config/session-duration");
    expect(duration.body).toEqual({ duration_minutes: 30 });
  });

  it("terminate ends open ssh connections, closes the live channel cleanly and leaves nothing in the engine", async () => {
    const live = openLive(server.api.base, deploymentId, alice.token);
    await live.until((m) => m.type === "deployment_update");
    const open = runClient("ssh", [...clientOptions(alice.key), "-p", String(server.sshPort), `${DISK}@${HOST}`, "sleep 120"], { timeoutMs: 30_000 });
    await waitFor("the ssh session", async () =>
      (await docker.getContainer((await engineObjects(server.dataDir)).containers[0]!.Id).top()).Processes.some((p: string[]) =>
        p.join(" ").includes("sleep 120"),
      ),
    );

    const r = await server.api.call("POST", `/challenges/${DISK}/session/terminate`, { token: alice.token });
    expect(r.body).toEqual({ message: "Deployment terminated", deployment_id: deploymentId });
    const ended = await open;
    expect(ended.code).toBe(255);
    expect(await live.closed).toEqual({ code: 1000, reason: "Deployment terminated" });
    expect(live.messages.at(-1)).toMatchObject({ type: "deployment_update", status: "terminated" });
    const left = await engineObjects(server.dataDir);
    expect(left.containers.concat(left.networks as never[])).toEqual([]);
    const after = await server.api.call("GET", `/challenges/${DISK}/active-session`, { token: alice.token });
    expect(after.body).toMatchObject({ status: "idle", deployment_id: null });
    expect((await server.api.call("POST", `/challenges/${DISK}/session/terminate`, { token: alice.token })).status).toBe(404);
  });
});

describe("expiry", () => {
  let server: Server;
  afterAll(async () => {
    await server?.stop();
  });

  it("the worker terminates a deployment when its time is up and removes its containers", async () => {
    server = await startTestServer({ SESSION_DURATION_MINUTES: "0.1" }); // 6 s
    const p = await server.player();
    const started = await server.api.call("POST", `/challenges/${NGINX}/session/start`, { token: p.token });
    expect(started.status).toBe(201);
    const live = openLive(server.api.base, started.body.deployment_status.deployment_id, p.token);
    const end = await live.until((m) => m.status === "terminated", 60_000);
    expect(end.error_message).toBe("The deployment expired.");
    expect((await live.closed).code).toBe(1000);
    await waitFor("containers removed", async () => (await engineObjects(server.dataDir)).deployments.size === 0, 15_000);
  });
});

describe("a server killed with -9 and started again", () => {
  let dataDir: string;
  let proc: ReturnType<typeof spawnServer> | null = null;
  afterAll(async () => {
    proc?.child.kill("SIGKILL");
    if (dataDir) {
      const left = await engineObjects(dataDir).catch(() => null);
      for (const c of left?.containers ?? [])
        await docker
          .getContainer(c.Id)
          .remove({ force: true })
          .catch(() => {});
      for (const n of left?.networks ?? [])
        await docker
          .getNetwork(n.Id)
          .remove()
          .catch(() => {});
    }
  });

  it("mid-deployment: no orphan is left and the deployment becomes reachable; when ready: it is adopted with its expiry", async () => {
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    dataDir = mkdtempSync(join(tmpdir(), "faultline-kill-"));
    const sshPortFixed = String(23000 + (process.pid % 1000));
    proc = spawnServer(dataDir, { SSH_PORT: sshPortFixed });
    let { port } = await proc.ready;
    let api = apiAt(`http://${HOST}:${port}`);
    const p = await makePlayer(api, dataDir);
    const started = await api.call("POST", `/challenges/${DISK}/session/start`, { token: p.token });
    expect(started.status).toBe(201);
    const id = started.body.deployment_status.deployment_id;
    // Kill it while setup.sh runs (the container exists, the fault is half made).
    await waitForStatus(api, p.token, DISK, (s) => s === "setting_up", 30_000);
    proc.child.kill("SIGKILL");
    await new Promise((r) => proc!.child.once("exit", r));
    expect((await engineObjects(dataDir)).deployments.has(id)).toBe(true);

    proc = spawnServer(dataDir, { SSH_PORT: sshPortFixed });
    ({ port } = await proc.ready);
    api = apiAt(`http://${HOST}:${port}`);
    const ready = await waitForStatus(api, p.token, DISK, (s) => s === "ready" || s === "failed", 60_000);
    expect(ready).toMatchObject({ deployment_id: id, status: "ready" });
    const objects = await engineObjects(dataDir);
    expect([...objects.deployments]).toEqual([id]);
    expect(objects.containers.filter((c) => c.Labels[LABEL.role] === "target")).toHaveLength(1);
    const inside = await ssh(Number(sshPortFixed), p, DISK, "hostname");
    expect(inside.stdout.trim()).toBe("ledger01");

    // Killed again, now with the deployment ready: adopted as it is, expiry kept.
    proc.child.kill("SIGKILL");
    await new Promise((r) => proc!.child.once("exit", r));
    const containerBefore = objects.containers[0]!.Id;
    proc = spawnServer(dataDir, { SSH_PORT: sshPortFixed });
    ({ port } = await proc.ready);
    api = apiAt(`http://${HOST}:${port}`);
    const adopted = await waitForStatus(api, p.token, DISK, () => true);
    expect(adopted).toMatchObject({ deployment_id: id, status: "ready", expires_at: ready.expires_at });
    const after = await engineObjects(dataDir);
    expect(after.containers.map((c) => c.Id)).toContain(containerBefore);
    expect((await ssh(Number(sshPortFixed), p, DISK, "hostname")).stdout.trim()).toBe("ledger01");

    const t = await api.call("POST", `/challenges/${DISK}/session/terminate`, { token: p.token });
    expect(t.status).toBe(200);
    expect((await engineObjects(dataDir)).deployments.size).toBe(0);
  });
});

describe("a setup that fails", () => {
  let server: Server;
  afterAll(async () => {
    await server?.stop();
  });

  it("marks the deployment failed with the reason, removes what was made, and a retry can start again", async () => {
    // The nginx challenge (its image) with a setup.sh that breaks, in a content folder of its own.
    const content = challengesFixture([NGINX]);
    writeFileSync(join(content, NGINX, "setup.sh"), "#!/bin/bash\necho 'fault injection exploded' >&2\nexit 3\n");
    server = await startTestServer({ CHALLENGES_DIR: content });
    const p = await server.player();
    const started = await server.api.call("POST", `/challenges/${NGINX}/session/start`, { token: p.token });
    expect(started.status).toBe(201);
    const live = openLive(server.api.base, started.body.deployment_status.deployment_id, p.token);
    const error = await live.until((m) => m.type === "deployment_error");
    expect(error.error).toMatch(/^Setting up the environment failed: .*exit 3.*fault injection exploded/s);
    expect((await live.closed).code).toBe(1000);
    const session = await server.api.call("GET", `/challenges/${NGINX}/active-session`, { token: p.token });
    expect(session.body).toMatchObject({ status: "failed", ssh_details: null, error_message: error.error });
    await waitFor("containers removed", async () => (await engineObjects(server.dataDir)).deployments.size === 0, 15_000);
    // Failed is not active: a retry may start, and the gateway has nothing to enter meanwhile.
    expect((await ssh(server.sshPort, p, NGINX, "true")).code).toBe(255);
    const retry = await server.api.call("POST", `/challenges/${NGINX}/session/start`, { token: p.token });
    expect(retry.status).toBe(201);
  });
});
