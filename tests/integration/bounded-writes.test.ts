// Writes a player causes, bounded (docs/decisions/016-per-user-bounds.md), on SQLite
// and PostgreSQL: recording stops at the free-space floor (the shell goes on), and only a player's
// newest answers are kept; one debrief read computes at most 4 open shells. The recorder here is the platform's own parts around a disk whose free
// space the test sets (the answer of the statfs system call), so the floor can be crossed at will.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "#server/core/ratelimit.ts";
import { createRecordingQuota } from "#server/core/recordings/quota.ts";
import { createRecorder, DISK_LOW_MARKER, type ShellRecording } from "#server/core/recordings/recorder.ts";
import { pruneSubmissions, SUBMISSIONS_KEPT } from "#server/core/submissions.ts";
import { nowSeconds } from "#server/db/index.ts";
import { createDiskSpace } from "#server/disk-space.ts";
import { challengesFixture, createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";

const CHALLENGE = "disk-full-deleted-log";
const MIB = 1024 * 1024;

describe.each(DATABASES)("bounded writes on %s", (kind) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { challengesDir: challengesFixture([CHALLENGE]), env: { RUNTIME: "none" } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.platform.db;
  async function player() {
    const u = await t.registerVerified();
    const id = (await db().selectFrom("users").select("id").where("username", "=", u.username).executeTakeFirstOrThrow()).id;
    return { ...u, id };
  }
  const solve = (userId: string, deploymentId: string) =>
    db()
      .insertInto("solves")
      .values({ user_id: userId, challenge_id: CHALLENGE, deployment_id: deploymentId, points: 200, solve_seconds: 60, solved_at: nowSeconds() })
      .execute();

  it("recording stops, the shell's recording marked, when free space falls below the floor", async () => {
    const p = await player();
    let free = 10 * MIB;
    const disk = createDiskSpace({ dir: join(t.dataDir, "recordings"), floorBytes: 5 * MIB, free: async () => free, maxAgeMs: 0 });
    // The platform's parts, but a disk whose free space the test says (the system call's answer).
    const store = t.platform.recordingStore;
    const limits = { perUser: { files: 9, bytes: 9 * MIB }, perDeployment: { files: 9, bytes: 9 * MIB }, perMinute: 9 };
    const recorder = createRecorder({
      db: db(),
      store,
      log: { warn: () => {} },
      limiter: createRateLimiter(),
      quota: createRecordingQuota({ db: db(), store, limits, fileBytes: MIB }),
      disk,
    });
    const rec = (await recorder.begin({ userId: p.id, deploymentId: randomUUID(), challengeId: CHALLENGE, source: "ssh", cols: 80, rows: 24 }))!;
    rec.input("before\r");
    free = MIB;
    await disk.check();
    rec.input("after\r");
    rec.output("more output");
    await rec.finish();
    const text = (await t.platform.recordingStore.open(rec.id))!;
    expect(text).toContain("before");
    expect(text).not.toContain("after");
    expect(text).toContain(DISK_LOW_MARKER);
    expect((await t.platform.recordingStore.get(rec.id))!.truncated).toBe(1);
    // And below the floor a new shell is not recorded at all.
    expect(await recorder.begin({ userId: p.id, deploymentId: randomUUID(), challengeId: CHALLENGE, source: "ssh", cols: 80, rows: 24 })).toBeNull();
  });

  it("a player's stored answers: the newest SUBMISSIONS_KEPT are kept, solves stay", async () => {
    const p = await player();
    const dep = randomUUID();
    const base = nowSeconds() - 10_000;
    await db()
      .insertInto("submissions")
      .values(
        Array.from({ length: SUBMISSIONS_KEPT + 20 }, (_, i) => ({
          id: randomUUID(),
          user_id: p.id,
          challenge_id: CHALLENGE,
          deployment_id: dep,
          solution: `answer ${i}`,
          is_correct: 0,
          feedback: "no",
          created_at: base + i,
        })),
      )
      .execute();
    await solve(p.id, dep);
    await pruneSubmissions(db(), p.id);
    const left = await db().selectFrom("submissions").select("solution").where("user_id", "=", p.id).orderBy("created_at").execute();
    expect(left).toHaveLength(SUBMISSIONS_KEPT);
    expect(left[0]!.solution).toBe("answer 20");
    expect(await db().selectFrom("solves").select("user_id").where("user_id", "=", p.id).execute()).toHaveLength(1);
  });

  it("one read computes at most 4 open shells; the others wait for their end and the list says it is cut", async () => {
    const p = await player();
    const token = (await t.login(p)).access_token as string;
    const dep = randomUUID();
    const open: ShellRecording[] = [];
    for (let i = 0; i < 6; i++) {
      const rec = (await t.platform.recorder.begin({ userId: p.id, deploymentId: dep, challengeId: CHALLENGE, source: "ssh", cols: 80, rows: 24 }))!;
      rec.input(`echo open-${i}\r`);
      open.push(rec);
    }
    await solve(p.id, dep);
    await new Promise((r) => setTimeout(r, 50));
    const body = (await t.call("GET", `/challenges/${CHALLENGE}/debrief`, { token })).body;
    expect(body.commands).toEqual(["echo open-0", "echo open-1", "echo open-2", "echo open-3"]);
    expect(body.commands_cut).toBe(true);
    for (const r of open) await r.finish();
    expect((await t.call("GET", `/challenges/${CHALLENGE}/debrief`, { token })).body).toMatchObject({
      commands: Array.from({ length: 6 }, (_, i) => `echo open-${i}`),
      commands_cut: false,
    });
  });
});
