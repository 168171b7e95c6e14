// The boot caches (server/core/deployments/boot-caches.ts) against a real dockerd and the real
// server: the images players solve most are filled first, and the fill never works on another
// image while a player's deployment is being made (a start right after a release does not queue
// behind the whole library).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challengeImage } from "#server/runtime/images.ts";
import type { Runtime } from "#server/runtime/types.ts";
import { challengesFixture } from "../support/platform.ts";
import { openLive, startTestServer, type Player } from "../support/server.ts";

const STARTED = "nginx-broken-config";
const OTHER = "disk-full-deleted-log";
const MOST_SOLVED = "cron-job-never-runs";

describe("boot caches", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let alice: Player;
  beforeAll(async () => {
    server = await startTestServer({ CHALLENGES_DIR: challengesFixture([OTHER, STARTED, MOST_SOLVED]) });
    alice = await server.player();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("fill the most solved image first, and only while no deployment is being made", async () => {
    const { db, runtime, deployments } = server.platform;
    await db
      .insertInto("challenge_solves")
      .values({ challenge_id: MOST_SOLVED, solves: 7 })
      .onConflict((oc) => oc.column("challenge_id").doUpdateSet({ solves: 7 }))
      .execute();
    // The real driver, watched: each image it is asked to prepare, and the player's deployment's
    // state at that moment.
    const rt = runtime as Runtime;
    const prepare = rt.prepare!.bind(rt);
    const seen: { image: string; deployment: string }[] = [];
    let deploymentId = "";
    rt.prepare = async (images) => {
      const row = await db.selectFrom("deployments").select("status").where("id", "=", deploymentId).executeTakeFirst();
      seen.push({ image: images.map((i) => i.image).join(","), deployment: row?.status ?? "none" });
      return prepare(images);
    };
    try {
      const started = await server.api.call("POST", `/challenges/${STARTED}/session/start`, { token: alice.token });
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      deploymentId = started.body.deployment_status.deployment_id;
      expect(started.body.deployment_status.status).toBe("queued");
      const live = openLive(server.api.base, deploymentId, alice.token);
      // Asked while the deployment is being made: the fill waits for it.
      const filled = deployments.prepareRuntime();
      const ready = await live.until((m) => m.type === "deployment_ready" || m.type === "deployment_error");
      live.ws.close();
      expect(ready.type).toBe("deployment_ready");
      await filled;
    } finally {
      rt.prepare = prepare;
    }
    expect(seen.map((s) => s.image)).toEqual([MOST_SOLVED, OTHER, STARTED].map(challengeImage));
    expect(seen.map((s) => s.deployment)).toEqual(["ready", "ready", "ready"]);
  });
});
