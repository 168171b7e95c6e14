// Shell recordings (issue 10) against the real server, dockerd and OpenSSH client: an interactive
// ssh session becomes an asciicast v2 file (header, "i" events with what was typed, "o" with what
// was printed) under DATA_DIR/recordings/<user id>/ with its row; a shell printing 5 MiB yields a
// file within the 1 MiB bound, marked truncated, and the shell stays usable (what is typed after
// is still recorded); deleting the user's recordings removes the files.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECORDING_MAX_BYTES, TRUNCATED_MARKER } from "../../server/core/recordings/recorder.ts";
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
  return waitFor(`${n} finished recordings`, async () => {
    const rows = await store().listByDeployment(deploymentId);
    return rows.length >= n && rows.every((r) => r.ended_at !== null) ? rows : null;
  }, 20_000);
}

const parse = (text: string) => {
  const [head, ...rest] = text.trimEnd().split("\n");
  return { header: JSON.parse(head!), events: rest.map((l) => JSON.parse(l) as [number, string, string]) };
};

beforeAll(async () => {
  server = await startTestServer();
  player = await server.player();
  const call = (method: string, path: string) => server.api.call(method, path, { token: player.token, body: {} });
  expect((await call("POST", `/challenges/${CHALLENGE}/session/start`)).status).toBe(201);
  const ready = await waitForStatus(server.api, player.token, CHALLENGE, (s) => s === "ready", 120_000);
  deploymentId = (ready as { deployment_id?: string }).deployment_id ?? (await server.api.call("GET", `/challenges/${CHALLENGE}/active-session`, { token: player.token })).body.deployment_id;
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
    expect(row!.path).toBe(join("recordings", userId, `${row!.id}.cast`));
    const text = (await store().open(row!.id))!;
    expect(statSync(join(server.dataDir, row!.path)).size).toBe(row!.bytes);
    const { header, events } = parse(text);
    expect(header).toMatchObject({ version: 2 });
    expect(header.width).toBeGreaterThan(0);
    expect(header.height).toBeGreaterThan(0);
    expect(Math.abs(header.timestamp - Date.now() / 1000)).toBeLessThan(120);
    const typed = events.filter((e) => e[1] === "i").map((e) => e[2]).join("");
    expect(typed).toContain("echo rec-$((2 * 21))\r");
    const printed = events.filter((e) => e[1] === "o").map((e) => e[2]).join("");
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
    const size = statSync(join(server.dataDir, big.path)).size;
    expect(size).toBeLessThanOrEqual(RECORDING_MAX_BYTES);
    expect(big.bytes).toBe(size);
    const { events } = parse((await store().open(big.id))!);
    expect(events.some((e) => e[1] === "m" && e[2] === TRUNCATED_MARKER)).toBe(true);
    // What was typed after the flood is still recorded (the input reserve).
    expect(events.filter((e) => e[1] === "i").map((e) => e[2]).join("")).toContain("echo after-$((40 + 2))");
  }, 120_000);

  it("deleting the user's recordings removes their files and rows", async () => {
    const rows = await store().listByDeployment(deploymentId);
    expect(rows.length).toBeGreaterThan(0);
    await store().deleteUserRecordings(userId);
    for (const row of rows) expect(existsSync(join(server.dataDir, row.path))).toBe(false);
    expect(await store().listByDeployment(deploymentId)).toEqual([]);
  });
});
