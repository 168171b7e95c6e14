// Written answers through the real platform (decision 008, "Written answers"): a list of every
// candidate is refused and costs nothing, three wrong answers close the deployment to answers
// until a reset draws a new incident, every attempt is recorded, and the challenge page's data
// says how the challenge is graded. Against the real server and dockerd.
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WRONG_ANSWERS_PER_DEPLOYMENT, WRONG_ANSWERS_USED_UP } from "#server/core/answers.ts";
import { startTestServer, waitForStatus } from "../support/server.ts";

const SLUG = "setid-vendor-tool";
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

it("an answer naming every candidate is refused for free; three wrong answers, then a reset before the next", async () => {
  const player = await server.player();
  const call = (method: string, path: string, body?: unknown) => server.api.call(method, path, { token: player.token, body });
  const detail = await call("GET", `/challenges/${SLUG}`);
  expect(detail.body.grading).toEqual({
    after_reboot: true,
    answer: { names: ["the program that had the privilege"], wrong_answers_allowed: WRONG_ANSWERS_PER_DEPLOYMENT },
  });

  expect((await call("POST", `/challenges/${SLUG}/session/start`, {})).status).toBe(201);
  await waitForStatus(server.api, player.token, SLUG, (s) => s === "ready", 120_000);
  const db = new Database(join(server.dataDir, "faultline.db"), { readonly: true });
  try {
    const row = db
      .prepare("SELECT d.id AS id, d.scenario_values AS v FROM deployments d JOIN users u ON u.id = d.user_id WHERE u.username = ?")
      .get(player.username) as { id: string; v: string };
    const values = JSON.parse(row.v) as Record<string, string>;
    const every = (JSON.parse(values.candidates!) as string[]).join(" ");
    const submit = (solution: string) => call("POST", `/challenges/${SLUG}/submit`, { solution });

    const listed = await submit(`It was one of these: ${every}`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({
      is_correct: false,
      feedback: "Your answer names more than one program: name only the program that had the privilege.",
    });
    for (let i = 0; i < WRONG_ANSWERS_PER_DEPLOYMENT; i++) {
      const wrong = await submit("No idea which one, sorry.");
      expect(wrong.status).toBe(200);
      expect(wrong.body).toMatchObject({ is_correct: false, feedback: "Your answer does not name the program that had the privilege." });
    }
    const closed = await submit(values.path!);
    expect(closed.status).toBe(429);
    expect(closed.body.detail).toBe(WRONG_ANSWERS_USED_UP);
    const recorded = db.prepare("SELECT answer_verdict AS v FROM submissions WHERE deployment_id = ? ORDER BY created_at, rowid").all(row.id) as {
      v: string;
    }[];
    expect(recorded.map((r) => r.v)).toEqual(["ambiguous", "wrong", "wrong", "wrong"]);

    // A reset draws a new incident: answers are taken again.
    expect((await call("POST", `/challenges/${SLUG}/session/reset`, {})).status).toBe(202);
    await waitForStatus(server.api, player.token, SLUG, (s) => s === "ready", 120_000);
    const again = await submit("Still no idea.");
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ is_correct: false });
  } finally {
    db.close();
    await call("POST", `/challenges/${SLUG}/session/terminate`, {});
  }
});
