// Resetting a deployment to its broken state, against a real dockerd, the real server
// and the real OpenSSH client: fresh containers and a new setup (new random values) with the same
// deployment id, expiry and ssh user; an open shell is told and closed; resetting → ready on the
// live channel; at most 3 resets. Also the solution-feedback mail after a real graded submission.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESET_NOT_READY, RESETS_USED_UP } from "#server/core/deployments/reset.ts";
import { MESSAGES } from "#server/gateway/messages.ts";
import { clientOptions, runClient, startClient, waitFor } from "../gateway/support.ts";
import { parseEml } from "../support/platform.ts";
import { HOST, openLive, startTestServer, waitForStatus, type Player } from "../support/server.ts";

const DISK = "disk-full-deleted-log";
const INFO = ["-o", "LogLevel=INFO"];

describe("resetting a deployment", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let alice: Player;
  let deploymentId: string;

  const row = () => server.platform.db.selectFrom("deployments").selectAll().where("id", "=", deploymentId).executeTakeFirstOrThrow();
  const reset = () => server.api.call("POST", `/challenges/${DISK}/session/reset`, { token: alice.token });
  const ssh = (command: string, extra: string[] = []) =>
    runClient("ssh", [...clientOptions(alice.key, extra), "-p", String(server.sshPort), `${DISK}@${HOST}`, command], { timeoutMs: 60_000 });

  beforeAll(async () => {
    server = await startTestServer();
    alice = await server.player({ plan: "pro" });
    const started = await server.api.call("POST", `/challenges/${DISK}/session/start`, { token: alice.token });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    deploymentId = started.body.deployment_status.deployment_id;
    await waitForStatus(server.api, alice.token, DISK, (s) => s === "ready", 120_000);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("a graded submission mails its feedback (the setting is on by default)", async () => {
    const res = await server.api.call("POST", `/challenges/${DISK}/submit`, {
      token: alice.token,
      body: { solution: "I looked around", deployment_uid: deploymentId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.is_correct).toBe(false);
    const mail = await waitFor("the feedback mail", () =>
      readdirSync(join(server.dataDir, "outbox"))
        .map((f) => parseEml(readFileSync(join(server.dataDir, "outbox", f), "utf8"), f))
        .find((m) => m.to.includes(alice.username) && m.subject.startsWith("Your solution to")),
    );
    expect(mail.subject).toMatch(/not correct yet$/);
    expect(mail.text).toContain(res.body.feedback);
    expect(mail.text).toMatch(/\/unsubscribe\?token=/);
  }, 120_000);

  it("replaces the containers and the values, keeps id, expiry and ssh user; an open shell gets the message", async () => {
    const before = await row();
    const shell = startClient("ssh", [...clientOptions(alice.key, INFO), "-tt", "-p", String(server.sshPort), `${DISK}@${HOST}`, "echo shell-open; sleep 300"]);
    // The shell's command runs (not only the connection authenticated): a reset between the two
    // ends a connection that has no channel yet to print the message on (seen on a loaded
    // machine: 'Received disconnect' without it).
    await waitFor("the open shell", async () => shell.stdout.includes("shell-open"), 20_000);
    const live = openLive(server.api.base, deploymentId, alice.token);

    const res = await reset();
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ deployment_id: deploymentId, resets_left: 2, expires_at: new Date(before.expires_at * 1000).toISOString() });
    // While it resets, another reset is refused.
    const again = await reset();
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(RESET_NOT_READY);

    const ended = await shell.exited;
    expect(ended.code).not.toBe(0);
    expect(shell.stdout + shell.stderr).toContain(MESSAGES.reset);

    await live.until((m) => m.type === "deployment_ready", 120_000);
    const statuses = live.messages.filter((m) => m.type === "deployment_update").map((m) => m.status);
    expect(statuses).toContain("resetting");
    expect(statuses.at(-1)).toBe("ready");
    live.ws.close();

    const after = await row();
    expect(after.id).toBe(before.id);
    expect(after.status).toBe("ready");
    expect(after.expires_at).toBe(before.expires_at);
    expect(after.ssh_user).toBe(before.ssh_user);
    expect(after.container_id).not.toBe(before.container_id);
    expect(after.scenario_values).not.toBe(before.scenario_values);
    expect(JSON.parse(after.scenario_values!).digest).not.toBe(JSON.parse(before.scenario_values!).digest);
    // The same ssh command gets in, to the fresh container.
    const inside = await ssh("cat /etc/hostname; ls /srv/ledger/data/journal-*.dat | wc -l", INFO);
    expect(inside.code, inside.stderr).toBe(0);
    expect(Number(inside.stdout.trim().split("\n").at(-1))).toBe(Number(JSON.parse(after.scenario_values!).journals));
  }, 180_000);

  it("another player cannot reset it (they have no deployment of the challenge)", async () => {
    const bob = await server.player();
    const res = await server.api.call("POST", `/challenges/${DISK}/session/reset`, { token: bob.token });
    expect(res.status).toBe(404);
    expect((await row()).status).toBe("ready");
  }, 60_000);

  it("at most 3 resets per deployment: the 4th is refused with 429", async () => {
    for (const left of [1, 0]) {
      const res = await reset();
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body.resets_left).toBe(left);
      await waitForStatus(server.api, alice.token, DISK, (s) => s === "ready", 120_000);
    }
    const fourth = await reset();
    expect(fourth.status).toBe(429);
    expect(fourth.body.detail).toBe(RESETS_USED_UP);
    expect((await row()).status).toBe("ready");
    const audit = await server.platform.db.selectFrom("audit_log").select("action").where("action", "=", "deployment.reset").execute();
    expect(audit).toHaveLength(3);
  }, 300_000);
});
