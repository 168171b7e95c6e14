// Admission control (security review R1), on SQLite and PostgreSQL: with a small configured
// capacity, a start that would take the active deployments' memory limits past it is refused with
// 503 and when to come back; once a deployment ends, starts are admitted again. No engine is
// needed: the capacity is decided from the database before the engine is asked for anything.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "#server/config.ts";
import { DEPLOYMENT_OVERHEAD_BYTES, deploymentCost, fullMessage } from "#server/core/capacity.ts";
import { nowSeconds } from "#server/db/index.ts";
import { createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";
import { makeSshKey, putSshKey } from "../support/ssh-keys.ts";
import { expectError } from "./assertions.ts";

const NGINX = "nginx-broken-config";
const DISK = "disk-full-deleted-log";
const keyDir = mkdtempSync(join(tmpdir(), "faultline-ckeys-"));
let made = 0;
const newKeyFile = () => makeSshKey(`cap${++made}`, "ed25519", { dir: keyDir }).file;
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

describe.each(DATABASES)("admission control on %s", (kind) => {
  let t: TestPlatform;
  let token: string;
  let otherUserId: string;
  beforeAll(async () => {
    // Room for one default deployment (512 MiB + overhead), not two.
    t = await createTestPlatform(kind, { env: { RUNTIME: "none", CAPACITY_MEMORY_MB: "1000" } });
    const u = await t.registerVerified();
    token = (await t.login(u)).access_token;
    expect((await putSshKey((method, path, body) => t.call(method, path, { token, body }), newKeyFile())).status).toBe(200);
    const other = await t.registerVerified();
    otherUserId = (await t.platform.db.selectFrom("users").select("id").where("username", "=", other.username).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function activeDeploymentOfOther(minutesLeft: number) {
    const now = nowSeconds();
    const id = `cap-${kind}-${Math.random().toString(36).slice(2, 10)}`;
    await t.platform.db
      .insertInto("deployments")
      .values({
        id,
        user_id: otherUserId,
        challenge_id: DISK,
        status: "ready",
        error_message: null,
        ssh_user: DISK,
        container_id: "c",
        scenario_values: null,
        active_key: `${otherUserId}:${DISK}`,
        created_at: now,
        ready_at: now,
        expires_at: now + minutesLeft * 60 - 5,
        ended_at: null,
        updated_at: now,
      })
      .execute();
    return id;
  }

  it("a start past the capacity is refused with 503 and the time of the earliest end", async () => {
    const id = await activeDeploymentOfOther(17);
    expectError(await t.call("POST", `/challenges/${NGINX}/session/start`, { token }), 503, "faultline is full right now. Try again in 17 minutes.");
    expect((await t.call("GET", "/challenges/active-session", { token })).body.has_active_session).toBe(false);
    // Once it ends there is room again: the start gets past admission (and, with no engine
    // configured here, stops at the runtime).
    await t.platform.db.updateTable("deployments").set({ status: "terminated", active_key: null, ended_at: nowSeconds() }).where("id", "=", id).execute();
    expectError(await t.call("POST", `/challenges/${NGINX}/session/start`, { token }), 503, /runtime is not available/);
  });
});

describe("capacity rules", () => {
  it("a deployment costs its memory limit plus the measured overhead", () => {
    expect(deploymentCost({ limits: {} })).toBe(512 * 2 ** 20 + DEPLOYMENT_OVERHEAD_BYTES);
    expect(deploymentCost({ limits: { memoryBytes: 100 * 2 ** 30 } })).toBe(2048 * 2 ** 20 + DEPLOYMENT_OVERHEAD_BYTES);
  });

  it("says when to come back, in whole minutes, at least one", () => {
    expect(fullMessage([1000 + 61, 1000 + 3600], 1000)).toBe("faultline is full right now. Try again in 2 minutes.");
    expect(fullMessage([1000 + 10], 1000)).toBe("faultline is full right now. Try again in 1 minute.");
    expect(fullMessage([], 1000)).toBe("faultline is full right now. Try again in 1 minute.");
  });

  it("the capacity comes from CAPACITY_MEMORY_MB, else a share of the host's memory; bad values name the variable", () => {
    const dir = mkdtempSync(join(tmpdir(), "faultline-capcfg-"));
    try {
      expect(loadConfig({ DATA_DIR: dir, CAPACITY_MEMORY_MB: "1000" }).deployments.capacityBytes).toBe(1000 * 2 ** 20);
      expect(loadConfig({ DATA_DIR: dir, CAPACITY_MEMORY_PERCENT: "50" }).deployments.capacityBytes).toBe(Math.floor(totalmem() / 2));
      expect(loadConfig({ DATA_DIR: dir }).deployments.capacityBytes).toBe(Math.floor((totalmem() * 75) / 100));
      expect(() => loadConfig({ DATA_DIR: dir, CAPACITY_MEMORY_PERCENT: "150" })).toThrow(/CAPACITY_MEMORY_PERCENT/);
      expect(() => loadConfig({ DATA_DIR: dir, DEPLOYMENT_RUNTIME: "kata" })).toThrow(/DEPLOYMENT_RUNTIME: must be runc or runsc/);
      expect(loadConfig({ DATA_DIR: dir }).deployments.ociRuntime).toBe("runc");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
