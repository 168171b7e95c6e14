// The admin console's API on SQLite and PostgreSQL: every admin route refuses a non-admin (403)
// and a visitor (401); each action changes real data and writes an audit entry; disabling signs
// the user out everywhere and blocks sign-in and tokens; settings are what new deployments read;
// maintenance mode refuses a start with its own detail; hidden challenges leave the catalogue.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";
import { makeSshKey, putSshKey } from "../support/ssh-keys.ts";
import { expectError } from "./assertions.ts";

const NGINX = "nginx-broken-config";
const MAINTENANCE = "faultline is in maintenance mode: new deployments are paused. Deployments already running continue. Please try again later.";

const keyDir = mkdtempSync(join(tmpdir(), "faultline-akeys-"));
let made = 0;
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

describe.each(DATABASES)("admin console API on %s", (kind) => {
  let t: TestPlatform;
  let admin: string; // access token
  let adminName: string;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { env: { RUNTIME: "none" } });
    const a = await t.registerVerified();
    await t.platform.accounts.setAdmin(a.username, true);
    admin = (await t.login(a)).access_token;
    adminName = a.username;
  });
  afterAll(async () => {
    await t?.close();
  });

  const idOf = async (username: string) => (await t.platform.db.selectFrom("users").select("id").where("username", "=", username).executeTakeFirstOrThrow()).id;
  /** A verified user with an SSH key: a start passes the built-in checks and meets ours. */
  const starter = async () => {
    const u = await t.registerVerified();
    const token = (await t.login(u)).access_token;
    const put = await putSshKey((method, path, body) => t.call(method, path, { token, body }), makeSshKey(`a${++made}`, "ed25519", { dir: keyDir }).file);
    expect(put.status).toBe(200);
    return token;
  };
  const lastAudit = async (action: string) => {
    const res = await t.call("GET", `/admin/audit?action=${action}`, { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.entries[0];
  };

  it("every admin route answers 403 to a non-admin and 401 to a visitor", async () => {
    const u = await t.registerVerified();
    const token = (await t.login(u)).access_token;
    const id = await idOf(u.username);
    const routes: [string, string, unknown?][] = [
      ["GET", "/admin/users"],
      ["POST", "/admin/users", { username: "x_new", email: "x@example.test", password: "long enough pw" }],
      ["POST", `/admin/users/${id}/verify`],
      ["PUT", `/admin/users/${id}/admin`, { is_admin: true }],
      ["POST", `/admin/users/${id}/plan`, { plan: "pro" }],
      ["POST", `/admin/users/${id}/disable`],
      ["POST", `/admin/users/${id}/enable`],
      ["GET", "/admin/challenges"],
      ["POST", "/admin/challenges/reload"],
      ["PUT", `/admin/challenges/${NGINX}/visibility`, { hidden: true }],
      ["GET", "/admin/system"],
      ["GET", "/admin/settings"],
      ["PUT", "/admin/settings", { maintenance_mode: true }],
      ["GET", "/admin/audit"],
      ["GET", "/admin/audit/export"],
    ];
    for (const [method, path, body] of routes) {
      expectError(await t.call(method, path, { token, body }), 403, "Admin access required");
      expectError(await t.call(method, path, { body }), 401);
    }
    // Nothing changed: still not an admin, not disabled, the challenge still listed.
    expect((await t.call("GET", "/users/me", { token })).body.is_admin).toBe(false);
    expect((await t.call("GET", `/admin/users?search=${u.username}`, { token: admin })).body.users[0].disabled).toBe(false);
  });

  it("Add User creates an unverified account, mails the link, and is audited", async () => {
    const res = await t.call("POST", "/admin/users", {
      token: admin,
      body: { username: "made_by_admin_" + kind, email: `made-${kind}@example.test`, password: "a long password" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ username: `made_by_admin_${kind}`, is_verified: false, is_admin: false, disabled: false });
    expect(t.mail(`made-${kind}@example.test`).text).toMatch(/\/verify-email\?token=/);
    expect(await lastAudit("admin.user_create")).toMatchObject({ actor: adminName, target: `made_by_admin_${kind}` });
    expectError(
      await t.call("POST", "/admin/users", {
        token: admin,
        body: { username: `made_by_admin_${kind}`, email: "other@example.test", password: "a long password" },
      }),
      409,
    );
    expectError(await t.call("POST", "/admin/users", { token: admin, body: { username: "x", email: "nope", password: "short" } }), 400);
  });

  it("verify, make admin, revoke admin and set plan change the user and are audited", async () => {
    const u = await t.register();
    const id = await idOf(u.username);
    expect((await t.call("POST", `/admin/users/${id}/verify`, { token: admin })).body.is_verified).toBe(true);
    expect(await lastAudit("admin.user_verify")).toMatchObject({ target: u.username, actor: adminName, ip: "203.0.113.1" });
    expect((await t.call("PUT", `/admin/users/${id}/admin`, { token: admin, body: { is_admin: true } })).body.is_admin).toBe(true);
    expect((await t.call("PUT", `/admin/users/${id}/admin`, { token: admin, body: { is_admin: false } })).body.is_admin).toBe(false);
    expect(await lastAudit("admin.user_admin")).toMatchObject({ target: u.username, detail: { is_admin: false } });
    const plan = await t.call("POST", `/admin/users/${id}/plan`, { token: admin, body: { plan: "pro" } });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    expect(plan.body.plan).toBe("pro");
    expect(await lastAudit("admin.user_plan")).toMatchObject({ target: u.username });
    // The list finds the user by a piece of the name, and pages.
    const found = await t.call("GET", `/admin/users?search=${u.username.slice(2)}`, { token: admin });
    expect(found.body.users.map((x: any) => x.username)).toContain(u.username);
    expect((await t.call("GET", "/admin/users?limit=1&page=2", { token: admin })).body).toMatchObject({ page: 2 });
    expectError(
      await t.call("PUT", `/admin/users/${await idOf(adminName)}/admin`, { token: admin, body: { is_admin: false } }),
      400,
      "You cannot revoke your own admin rights.",
    );
  });

  it("disabling signs the user out everywhere and blocks sign-in and tokens; enabling lets them back", async () => {
    const u = await t.registerVerified();
    const { access_token, refresh_token } = await t.login(u);
    const id = await idOf(u.username);
    await t.platform.webSessions.create({ tokens: {} }, { userId: id });
    const res = await t.call("POST", `/admin/users/${id}/disable`, { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.disabled).toBe(true);
    expectError(await t.call("GET", "/users/me", { token: access_token }), 401);
    expectError(await t.call("POST", "/auth/refresh", { body: { refresh_token } }), 401);
    const sessions = await t.platform.db.selectFrom("web_sessions").select("id_hash").where("user_id", "=", id).execute();
    expect(sessions).toEqual([]);
    expectError(
      await t.call("POST", "/auth/login", { body: { username_or_email: u.username, password: u.password }, ip: "198.18.0.9" }),
      403,
      /This account has been disabled/,
    );
    expect(await lastAudit("admin.user_disable")).toMatchObject({ target: u.username });
    expect(await lastAudit("auth.login_failed")).toMatchObject({ target: u.username, detail: { reason: "disabled" } });
    expect((await t.call("POST", `/admin/users/${id}/enable`, { token: admin })).body.disabled).toBe(false);
    await t.login(u);
    expect(await lastAudit("auth.login")).toMatchObject({ actor: u.username });
  });

  it("a disabled account leaves the leaderboard and its profile is hidden; enabled, both come back", async () => {
    const u = await t.registerVerified();
    const id = await idOf(u.username);
    const challenge = (await t.platform.db.selectFrom("challenges").select("id").executeTakeFirstOrThrow()).id;
    await t.platform.db
      .insertInto("solves")
      .values({
        user_id: id,
        challenge_id: challenge,
        deployment_id: `d-${u.username}`,
        points: 100,
        solve_seconds: 600,
        solved_at: Math.floor(Date.now() / 1000),
      })
      .execute();
    const listed = async () =>
      ((await t.call("GET", `/leaderboard?limit=100&search=${u.username}`)).body.entries as { username: string }[]).map((e) => e.username);
    expect(await listed()).toEqual([u.username]);
    expect((await t.call("POST", `/admin/users/${id}/disable`, { token: admin })).status).toBe(200);
    expect(await listed()).toEqual([]);
    expectError(await t.call("GET", `/users/${u.username}`), 404);
    expect((await t.call("POST", `/admin/users/${id}/enable`, { token: admin })).status).toBe(200);
    expect(await listed()).toEqual([u.username]);
    expect((await t.call("GET", `/users/${u.username}`)).status).toBe(200);
  });

  it("settings are saved, audited, and read by new deployments; maintenance refuses a start", async () => {
    const saved = await t.call("PUT", "/admin/settings", { token: admin, body: { session_timeout_minutes: 45, max_concurrent_deployments: 7 } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ session_timeout_minutes: 45, max_concurrent_deployments: 7, maintenance_mode: false });
    expect(t.platform.admin.settings.current().session_timeout_minutes).toBe(45);
    expect((await t.call("GET", "/challenges/config/session-duration")).body).toEqual({ duration_minutes: 45 });
    expect((await t.call("GET", "/admin/settings", { token: admin })).body).toMatchObject({ session_timeout_minutes: 45 });
    expect(await lastAudit("admin.settings")).toMatchObject({ detail: { session_timeout_minutes: { from: 30, to: 45 } } });
    expectError(await t.call("PUT", "/admin/settings", { token: admin, body: { session_timeout_minutes: 100000 } }), 400);
    expectError(await t.call("PUT", "/admin/settings", { token: admin, body: { bogus: 1 } }), 400);

    expect((await t.call("PUT", "/admin/settings", { token: admin, body: { maintenance_mode: true } })).body.maintenance_mode).toBe(true);
    expect((await t.call("GET", "/system/notice")).body).toEqual({ maintenance: true, message: MAINTENANCE });
    const token = await starter();
    expectError(await t.call("POST", `/challenges/${NGINX}/session/start`, { token }), 503, MAINTENANCE);
    await t.call("PUT", "/admin/settings", { token: admin, body: { maintenance_mode: false } });
    expect((await t.call("GET", "/system/notice")).body).toEqual({ maintenance: false, message: null });
  });

  it("challenges: figures, hide and show in the catalogue, reload reports what loaded", async () => {
    const list = await t.call("GET", "/admin/challenges", { token: admin });
    expect(list.status).toBe(200);
    const nginx = list.body.challenges.find((c: any) => c.id === NGINX);
    expect(nginx).toMatchObject({ starts: 0, solves: 0, success_rate: null, median_solve_seconds: null, hidden: false });

    expect((await t.call("PUT", `/admin/challenges/${NGINX}/visibility`, { token: admin, body: { hidden: true } })).body).toEqual({ id: NGINX, hidden: true });
    const listed = (await t.call("GET", "/challenges/")).body.challenges.map((c: any) => c.id);
    expect(listed).not.toContain(NGINX);
    expectError(await t.call("POST", `/challenges/${NGINX}/session/start`, { token: await starter() }), 404, "Challenge not found");
    // Its page too, to a visitor and to a player; an admin still reads it.
    expectError(await t.call("GET", `/challenges/${NGINX}`), 404, "Challenge not found");
    expectError(await t.call("GET", `/challenges/${NGINX}`, { token: await starter() }), 404, "Challenge not found");
    expect((await t.call("GET", `/challenges/${NGINX}`, { token: admin })).body).toMatchObject({ id: NGINX });
    expect(await lastAudit("admin.challenge_hide")).toMatchObject({ target: NGINX });
    await t.call("PUT", `/admin/challenges/${NGINX}/visibility`, { token: admin, body: { hidden: false } });
    expect((await t.call("GET", "/challenges/")).body.challenges.map((c: any) => c.id)).toContain(NGINX);

    const reload = await t.call("POST", "/admin/challenges/reload", { token: admin });
    expect(reload.status, JSON.stringify(reload.body)).toBe(200);
    expect(reload.body.loaded).toContain(NGINX);
    expect(reload.body.problems).toEqual([]);
    expect(await lastAudit("admin.content_reload")).toMatchObject({ actor: adminName });
  });

  it("system figures are measured; the log filters by actor and date and exports JSON lines", async () => {
    const sys = await t.call("GET", "/admin/system", { token: admin });
    expect(sys.status).toBe(200);
    expect(sys.body.memory.total_bytes).toBeGreaterThan(0);
    expect(sys.body.storage.total_bytes).toBeGreaterThan(0);
    expect(sys.body.activeUsers).toBeGreaterThanOrEqual(1);
    expect(sys.body.activeSessions).toBe(0);

    const mine = await t.call("GET", `/admin/audit?actor=${adminName}`, { token: admin });
    expect(mine.body.total).toBeGreaterThan(0);
    expect(mine.body.entries.every((e: any) => e.actor === adminName)).toBe(true);
    const future = await t.call("GET", "/admin/audit?from=2999-01-01", { token: admin });
    expect(future.body.total).toBe(0);
    expectError(await t.call("GET", "/admin/audit?from=yesterday", { token: admin }), 400);
    expectError(await t.call("GET", "/admin/audit?action=nope", { token: admin }), 400);

    const res = await t.platform.api.handle(
      new Request("http://test/api/v1/admin/audit/export?action=admin.settings", { headers: { authorization: `Bearer ${admin}` } }),
      { clientIp: "203.0.113.1" },
    );
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.action === "admin.settings")).toBe(true);
  });
});
