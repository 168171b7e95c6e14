// Who may read a recorded shell, on SQLite and PostgreSQL: its owner; nobody else
// (404, as if it did not exist); anyone once the owner published it, which only a solved
// challenge's session can be; admins, every opening audited. The recordings are made as the
// recorder leaves them: a row and an asciicast file under DATA_DIR/recordings/<user id>/.
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowSeconds } from "#server/db/index.ts";
import { challengesFixture, createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";

const CHALLENGE = "disk-full-deleted-log";
const FIXTURE = readFileSync(join(import.meta.dirname, "../../server/core/recordings/fixtures/ledger-session.cast"), "utf8");

describe.each(DATABASES)("recordings access on %s", (kind) => {
  let t: TestPlatform;
  let admin: { token: string; id: string };
  beforeAll(async () => {
    t = await createTestPlatform(kind, { challengesDir: challengesFixture([CHALLENGE]), env: { RUNTIME: "none" } });
    admin = await player();
    await t.platform.accounts.setAdmin(
      (await t.platform.db.selectFrom("users").select("username").where("id", "=", admin.id).executeTakeFirstOrThrow()).username,
      true,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  async function player() {
    const u = await t.registerVerified();
    const token = (await t.login(u)).access_token;
    const id = (await t.platform.db.selectFrom("users").select("id").where("username", "=", u.username).executeTakeFirstOrThrow()).id;
    return { ...u, token, id };
  }

  /** A recorded shell of `userId`'s deployment, as the recorder leaves it (the commands not
   *  extracted yet, as for a recording of an older deployment: the debrief does it on first read). */
  async function recording(userId: string, deploymentId = randomUUID(), cast = FIXTURE) {
    const id = randomUUID();
    const path = join(userId, `${id}.cast`);
    mkdirSync(join(t.dataDir, "recordings", userId), { recursive: true });
    writeFileSync(join(t.dataDir, "recordings", path), cast);
    await t.platform.db
      .insertInto("recordings")
      .values({
        id,
        user_id: userId,
        deployment_id: deploymentId,
        challenge_id: CHALLENGE,
        source: "ssh",
        started_at: nowSeconds() - 60,
        ended_at: nowSeconds(),
        bytes: cast.length,
        truncated: 0,
        path,
      })
      .execute();
    return { id, deploymentId };
  }

  async function solve(userId: string, deploymentId: string) {
    await t.platform.db
      .insertInto("solves")
      .values({ user_id: userId, challenge_id: CHALLENGE, deployment_id: deploymentId, points: 200, solve_seconds: 120, solved_at: nowSeconds() })
      .execute();
  }

  it("the owner reads their recording and its file; another user and a visitor get 404", async () => {
    const owner = await player();
    const other = await player();
    const r = await recording(owner.id);
    const mine = await t.call("GET", `/recordings/${r.id}`, { token: owner.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ id: r.id, challenge_id: CHALLENGE, source: "ssh", published: false, truncated: false });
    const file = await t.call("GET", `/recordings/${r.id}/cast`, { token: owner.token });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toMatch(/application\/x-asciicast/);
    expect(file.headers.get("cache-control")).toMatch(/no-store/);
    expect(file.body).toBe(FIXTURE);

    for (const path of [`/recordings/${r.id}`, `/recordings/${r.id}/cast`]) {
      const res = await t.call("GET", path, { token: other.token });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ detail: "Recording not found" });
    }
    expect((await t.call("GET", `/recordings/${r.id}/cast`)).status).toBe(404);
    expect((await t.call("GET", `/recordings/${r.id}`)).status).toBe(401);
    // Nor can another user publish it, or list it.
    expect((await t.call("PUT", `/recordings/${r.id}/published`, { token: other.token, body: { published: true } })).status).toBe(404);
    expect((await t.call("GET", `/challenges/${CHALLENGE}/recordings`, { token: other.token })).body.recordings).toEqual([]);
    expect((await t.call("GET", "/users/me/recordings", { token: owner.token })).body.recordings.map((x: { id: string }) => x.id)).toEqual([r.id]);
    // Ids that are not ids are a 400, never a path.
    expect((await t.call("GET", "/recordings/..%2F..%2Fetc/cast", { token: owner.token })).status).toBe(400);
  });

  it("the debrief lists the solving deployment's recordings and the commands typed in them", async () => {
    const owner = await player();
    const r = await recording(owner.id);
    await recording(owner.id); // another deployment's shell: not this solve's
    await solve(owner.id, r.deploymentId);
    const res = await t.call("GET", `/challenges/${CHALLENGE}/debrief`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.recordings.map((x: { id: string }) => x.id)).toEqual([r.id]);
    expect(res.body.commands).toEqual([
      "df -h /srv",
      "du -sh /srv",
      "lsof +L1",
      "less /var/log/x",
      ": > /proc/123/fd/4",
      "service ledgerd restart",
      "service ledgerd restart",
    ]);
  });

  it("publishing: only a solved challenge's session, private by default, then anyone may replay it", async () => {
    const owner = await player();
    const other = await player();
    const r = await recording(owner.id);
    const early = await t.call("PUT", `/recordings/${r.id}/published`, { token: owner.token, body: { published: true } });
    expect(early.status).toBe(409);
    expect(early.body.detail).toBe("Only the session of a challenge you solved can be published.");
    expect((await t.call("GET", `/users/${owner.username}/solutions`)).body.solutions).toEqual([]);

    await solve(owner.id, r.deploymentId);
    const bad = await t.call("PUT", `/recordings/${r.id}/published`, { token: owner.token, body: { published: "yes" } });
    expect(bad.status).toBe(400);
    const pub = await t.call("PUT", `/recordings/${r.id}/published`, { token: owner.token, body: { published: true } });
    expect(pub.status).toBe(200);
    expect(pub.body.published).toBe(true);
    const listed = await t.call("GET", `/users/${owner.username}/solutions`);
    expect(listed.body.solutions).toEqual([expect.objectContaining({ recording_id: r.id, challenge_id: CHALLENGE, title: expect.any(String) })]);
    expect((await t.call("GET", `/recordings/${r.id}/cast`)).body).toBe(FIXTURE);
    expect((await t.call("GET", `/recordings/${r.id}/cast`, { token: other.token })).status).toBe(200);
    // The metadata stays the owner's.
    expect((await t.call("GET", `/recordings/${r.id}`, { token: other.token })).status).toBe(404);

    await t.call("PUT", `/recordings/${r.id}/published`, { token: owner.token, body: { published: false } });
    expect((await t.call("GET", `/recordings/${r.id}/cast`, { token: other.token })).status).toBe(404);
    expect((await t.call("GET", `/users/${owner.username}/solutions`)).body.solutions).toEqual([]);
    expect((await t.call("GET", "/users/nobody-at-all-here/solutions")).status).toBe(404);
  });

  it("admins list and open any recording, each opening audited; others get 403", async () => {
    const owner = await player();
    const other = await player();
    const r = await recording(owner.id);
    expect((await t.call("GET", "/admin/recordings", { token: other.token })).status).toBe(403);
    expect((await t.call("GET", `/admin/recordings/${r.id}/cast`, { token: other.token })).status).toBe(403);
    expect((await t.call("GET", `/admin/recordings/${r.id}/cast`)).status).toBe(401);

    const list = await t.call("GET", `/admin/recordings?username=${owner.username}`, { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body.recordings).toEqual([expect.objectContaining({ id: r.id, username: owner.username })]);
    const file = await t.call("GET", `/admin/recordings/${r.id}/cast`, { token: admin.token });
    expect(file.status).toBe(200);
    expect(file.body).toBe(FIXTURE);
    const audit = await t.call("GET", "/admin/audit?action=admin.recording_view", { token: admin.token });
    expect(audit.body.entries[0]).toMatchObject({ action: "admin.recording_view", target: r.id, actor_id: admin.id });
    expect((await t.call("GET", `/admin/recordings/${randomUUID()}/cast`, { token: admin.token })).status).toBe(404);
  });

  it("a disabled account has no public face: profile, solves, activity and published sessions are 404 until it is enabled", async () => {
    const owner = await player();
    const other = await player();
    const r = await recording(owner.id);
    await solve(owner.id, r.deploymentId);
    expect((await t.call("PUT", `/recordings/${r.id}/published`, { token: owner.token, body: { published: true } })).status).toBe(200);
    const paths = [
      `/users/${owner.username}`,
      `/users/${owner.username}/challenges/`,
      `/users/${owner.username}/activity`,
      `/users/${owner.username}/solutions`,
      `/recordings/${r.id}/cast`,
    ];
    const statuses = async (token?: string) => Promise.all(paths.map(async (path) => (await t.call("GET", path, { token })).status));
    expect(await statuses()).toEqual([200, 200, 200, 200, 200]);
    expect((await t.call("POST", `/admin/users/${owner.id}/disable`, { token: admin.token })).status).toBe(200);
    expect(await statuses()).toEqual([404, 404, 404, 404, 404]);
    expect(await statuses(other.token)).toEqual([404, 404, 404, 404, 404]);
    expect((await t.call("GET", `/users/${owner.username}`)).body).toEqual({ detail: "User not found" });
    // Admins still review it.
    expect((await t.call("GET", `/admin/recordings/${r.id}/cast`, { token: admin.token })).status).toBe(200);
    expect((await t.call("POST", `/admin/users/${owner.id}/enable`, { token: admin.token })).status).toBe(200);
    expect(await statuses()).toEqual([200, 200, 200, 200, 200]);
  });
});
