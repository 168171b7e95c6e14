// Shell recordings against the real server, dockerd and OpenSSH client: an interactive
// ssh session becomes an asciicast v2 file (header, "i" events with what was typed, "o" with what
// was printed) under DATA_DIR/recordings/<user id>/ with its row; a shell printing 5 MiB yields a
// file within the 1 MiB bound, marked truncated, and the shell stays usable (what is typed after
// is still recorded); a flood of `ssh host cmd` stays within the deployment's quota and the
// per-minute rate while every command still runs and answers; the commands typed
// are stored when the shell ends; deleting the user's recordings removes the files.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECORDING_MAX_BYTES, TRUNCATED_MARKER } from "#server/core/recordings/recorder.ts";
import { clientOptions, runClient, waitFor } from "../gateway/support.ts";
import { HOST, startTestServer, waitForStatus, type Player } from "../support/server.ts";

const CHALLENGE = "disk-full-deleted-log";
let server: Awaited<ReturnType<typeof startTestServer>>;
let player: Player;
let deploymentId: string;
let userId: string;

/** Types `lines` into an interactive login shell over ssh with a terminal, as a person would. */
const typeOverSsh = (lines: string[]) =>
  runClient("ssh", ["-tt", ...clientOptions(player.key), "-p", String(server.sshPort), `${CHALLENGE}@${HOST}`], {
    input: lines.map((l) => `${l}\r`).join(""),
    timeoutMs: 120_000,
  });

const store = () => server.platform.recordingStore;

async function finishedRecordings(n: number) {
  return waitFor(
    `${n} finished recordings`,
    async () => {
      const rows = await store().listByDeployment(deploymentId);
      return rows.length >= n && rows.every((r) => r.ended_at !== null) ? rows : null;
    },
    20_000,
  );
}

const parse = (text: string) => {
  const [head, ...rest] = text.trimEnd().split("\n");
  return { header: JSON.parse(head!), events: rest.map((l) => JSON.parse(l) as [number, string, string]) };
};

beforeAll(async () => {
  // Small bounds, so a flood reaches them in seconds (the defaults: 100 files per deployment,
  // 30 recorded shells per minute).
  server = await startTestServer({ RECORDINGS_MAX_FILES_PER_DEPLOYMENT: "4", RECORDINGS_PER_MINUTE: "8" });
  player = await server.player();
  const call = (method: string, path: string) => server.api.call(method, path, { token: player.token, body: {} });
  expect((await call("POST", `/challenges/${CHALLENGE}/session/start`)).status).toBe(201);
  const ready = await waitForStatus(server.api, player.token, CHALLENGE, (s) => s === "ready", 120_000);
  deploymentId =
    (ready as { deployment_id?: string }).deployment_id ??
    (await server.api.call("GET", `/challenges/${CHALLENGE}/active-session`, { token: player.token })).body.deployment_id;
  userId = (await server.platform.db.selectFrom("users").select("id").where("username", "=", player.username).executeTakeFirstOrThrow()).id;
}, 180_000);

afterAll(async () => {
  if (server && player) await server.api.call("POST", `/challenges/${CHALLENGE}/session/terminate`, { token: player.token, body: {} });
  await server?.stop();
});

describe("recordings of ssh shells", () => {
  it("an interactive session is an asciicast v2 file with the typed command as input events", async () => {
    const r = await typeOverSsh(["echo rec-$((2 * 21))", "exit"]);
    expect(r.stdout).toContain("rec-42");
    const [row] = await finishedRecordings(1);
    expect(row).toMatchObject({ user_id: userId, deployment_id: deploymentId, challenge_id: CHALLENGE, source: "ssh", truncated: 0, published: 0 });
    expect(row!.path).toBe(join(userId, `${row!.id}.cast`));
    const text = (await store().open(row!.id))!;
    expect(statSync(join(server.dataDir, "recordings", row!.path)).size).toBe(row!.bytes);
    const { header, events } = parse(text);
    expect(header).toMatchObject({ version: 2 });
    expect(header.width).toBeGreaterThan(0);
    expect(header.height).toBeGreaterThan(0);
    expect(Math.abs(header.timestamp - Date.now() / 1000)).toBeLessThan(120);
    const typed = events
      .filter((e) => e[1] === "i")
      .map((e) => e[2])
      .join("");
    expect(typed).toContain("echo rec-$((2 * 21))\r");
    const printed = events
      .filter((e) => e[1] === "o")
      .map((e) => e[2])
      .join("");
    expect(printed).toContain("rec-42");
    // Times only go forward.
    for (let i = 1; i < events.length; i++) expect(events[i]![0]).toBeGreaterThanOrEqual(events[i - 1]![0]);
    expect((await store().listByUserChallenge(userId, CHALLENGE)).map((x) => x.id)).toContain(row!.id);
  }, 60_000);

  it("a shell printing 5 MiB: the file stays within the bound, marked truncated, and the shell goes on", async () => {
    const r = await typeOverSsh(["head -c 3900000 /dev/urandom | base64 -w 200", "echo after-$((40 + 2))", "exit"]);
    expect(r.stdout.length).toBeGreaterThan(5_000_000);
    expect(r.stdout).toContain("after-42");
    const rows = await finishedRecordings(2);
    const big = rows.find((x) => x.truncated === 1)!;
    expect(big).toBeDefined();
    const size = statSync(join(server.dataDir, "recordings", big.path)).size;
    expect(size).toBeLessThanOrEqual(RECORDING_MAX_BYTES);
    expect(big.bytes).toBe(size);
    const { events } = parse((await store().open(big.id))!);
    expect(events.some((e) => e[1] === "m" && e[2] === TRUNCATED_MARKER)).toBe(true);
    // What was typed after the flood is still recorded (the input reserve).
    expect(
      events
        .filter((e) => e[1] === "i")
        .map((e) => e[2])
        .join(""),
    ).toContain("echo after-$((40 + 2))");
  }, 120_000);

  it("the commands typed in an interactive shell are stored when it ends", async () => {
    await typeOverSsh(["echo stored-$((6 * 7))", "exit"]);
    const row = await waitFor(
      "the shell's commands",
      async () => {
        const all = await store().listByDeployment(deploymentId);
        return all.find((r) => r.commands?.includes("stored-"));
      },
      20_000,
    );
    expect(JSON.parse(row.commands!)).toEqual(["echo stored-$((6 * 7))", "exit"]);
  }, 60_000);

  it("a flood of `ssh host cmd`: every command runs and answers, the recordings stay within the quota and the rate", async () => {
    const outputs: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await runClient("ssh", [...clientOptions(player.key), "-p", String(server.sshPort), `${CHALLENGE}@${HOST}`, `echo flood-$((${i} * 2))`], {
        timeoutMs: 30_000,
      });
      outputs.push(r.stdout.trim());
    }
    expect(outputs).toEqual(Array.from({ length: 20 }, (_, i) => `flood-${i * 2}`));
    const rows = await waitFor(
      "the recordings to settle",
      async () => {
        const all = await store().listByDeployment(deploymentId);
        return all.every((r) => r.ended_at !== null && r.commands !== null) ? all : null;
      },
      20_000,
    );
    expect(rows.length).toBeLessThanOrEqual(4);
    // The newest kept: the oldest private ones made room.
    const ids = rows.map((r) => r.id);
    expect(ids).toEqual([...ids].sort());
    for (const r of rows) expect(existsSync(join(server.dataDir, "recordings", r.path))).toBe(true);
    // 20 shells in seconds, 8 a minute: at least 4 were refused by the rate, even across a window.
    const metrics = await server.platform.metrics.render();
    const refused = Number(/faultline_recordings_refused_total\{reason="rate"\} (\d+)/.exec(metrics)?.[1] ?? 0);
    expect(refused).toBeGreaterThanOrEqual(4);
  }, 180_000);

  it("deleting the user's recordings removes their files and rows", async () => {
    const rows = await store().listByDeployment(deploymentId);
    expect(rows.length).toBeGreaterThan(0);
    await store().deleteUserRecordings(userId);
    for (const row of rows) expect(existsSync(join(server.dataDir, "recordings", row.path))).toBe(false);
    expect(await store().listByDeployment(deploymentId)).toEqual([]);
  });
});
