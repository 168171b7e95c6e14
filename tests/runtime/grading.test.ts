// Grading's writes are one transaction: when recording the solve fails, the
// correct submission is not left behind without its points; the player submits again and gets
// them. Against the real server, dockerd and the OpenSSH client; the failure is a trigger in the
// server's own SQLite database, the way a crash between the two writes would leave it. Networks
// with the deployment's labels beside its own (a booted copy's, while it is removed) change nothing.
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadChallenges } from "#server/library/challenges.ts";
import { createDockerRuntime } from "#server/runtime/docker/index.ts";
import { clientOptions, runClient } from "../gateway/support.ts";
import { HOST, startTestServer, waitForStatus } from "../support/server.ts";

const NGINX = "nginx-broken-config";
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

it("a failed solve write leaves no correct submission behind, and the next submission awards the points", async () => {
  const challenge = loadChallenges().find((c) => c.id === NGINX)!;
  const player = await server.player();
  const call = (method: string, path: string, body?: unknown) => server.api.call(method, path, { token: player.token, body });
  expect((await call("POST", `/challenges/${NGINX}/session/start`, {})).status).toBe(201);
  await waitForStatus(server.api, player.token, NGINX, (s) => s === "ready", 120_000);
  const fix = await runClient("ssh", [...clientOptions(player.key), "-p", String(server.sshPort), `${NGINX}@${HOST}`, "bash -s"], {
    input: challenge.solution.script,
    timeoutMs: 120_000,
  });
  expect(fix.code, fix.stderr).toBe(0);

  const db = new Database(join(server.dataDir, "faultline.db"));
  try {
    // A check's booted copy has a network of its own, with the deployment's labels, for the
    // seconds its removal takes: the next check must still join the deployment's own network.
    const deployment = db.prepare("SELECT id, user_id FROM deployments WHERE challenge_id = ? ORDER BY created_at DESC LIMIT 1").get(NGINX) as {
      id: string;
      user_id: string;
    };
    const runtime = createDockerRuntime();
    for (const purpose of ["bdecoy1", "bdecoy2", "bdecoy3"]) {
      await runtime.createNetwork({ deploymentId: deployment.id, userId: deployment.user_id, challengeId: NGINX }, purpose);
    }

    db.exec("CREATE TRIGGER fail_solves BEFORE INSERT ON solves BEGIN SELECT RAISE(ABORT, 'disk gone'); END");
    const failed = await call("POST", `/challenges/${NGINX}/submit`, { solution: "Repaired the site's configuration." });
    expect(failed.status).toBe(500);
    const left = db.prepare("SELECT count(*) AS n FROM submissions s JOIN users u ON u.id = s.user_id WHERE u.username = ?").get(player.username) as {
      n: number;
    };
    expect(left.n).toBe(0);

    db.exec("DROP TRIGGER fail_solves");
    const ok = await call("POST", `/challenges/${NGINX}/submit`, { solution: "Repaired the site's configuration." });
    expect(ok.status).toBe(200);
    expect(ok.body, JSON.stringify(ok.body)).toMatchObject({ is_correct: true, points_awarded: challenge.points, already_solved: false });
    const rows = db.prepare("SELECT s.is_correct AS c FROM submissions s JOIN users u ON u.id = s.user_id WHERE u.username = ?").all(player.username);
    expect(rows).toEqual([{ c: 1 }]);
  } finally {
    db.close();
    await call("POST", `/challenges/${NGINX}/session/terminate`, {});
  }
});
