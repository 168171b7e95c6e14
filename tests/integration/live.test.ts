// The live channel's doors (server/http/live.ts) on SQLite and PostgreSQL: a browser gets in with
// its sign-in cookie from a page of this site only (Origin = PUBLIC_URL's origin), another
// program with a bearer token in a header, nobody with a token in the URL; and a socket lives
// no longer than what let it in (sign-out, password change, a session deleted or expired, the
// bearer token's expiry). The deployment is a row of the real database (no engine needed).
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachLiveChannel } from "#server/http/live.ts";
import { createUpgradeDispatcher } from "#server/http/upgrades.ts";
import { nowSeconds } from "#server/db/index.ts";
import { createTestPlatform, DATABASES, PUBLIC_URL, type TestPlatform } from "../support/platform.ts";

const ORIGIN = new URL(PUBLIC_URL).origin;
const AUTH_REQUIRED = { code: 4401, reason: "Authentication required" };

describe.each(DATABASES)("live channel authentication on %s", (kind) => {
  let t: TestPlatform;
  let server: Server;
  let live: ReturnType<typeof attachLiveChannel>;
  let base: string;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { env: { RUNTIME: "none" } });
    server = createServer();
    live = attachLiveChannel(createUpgradeDispatcher(server, { log: t.platform.log }), {
      deployments: t.platform.deployments,
      tokens: t.platform.tokens,
      webSessions: t.platform.webSessions,
      publicOrigin: ORIGIN,
      log: t.platform.log,
      revalidateMs: 200,
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    live?.close();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  /** A user signed in on the web (a session as the web stores it), with a deployment of theirs. */
  async function player() {
    const u = await t.register();
    const login = await t.login(u);
    const userId: string = login.user.id;
    const data = { tokens: { access_token: login.access_token, refresh_token: login.refresh_token, access_exp: 1, user_id: userId } };
    const sessionId = await t.platform.webSessions.create(data, { userId });
    const cookie = (await t.platform.webSessions.cookie.serialize(sessionId)).split(";")[0]!;
    const deploymentId = randomUUID();
    const now = nowSeconds();
    await t.platform.db
      .insertInto("deployments")
      .values({
        id: deploymentId,
        user_id: userId,
        challenge_id: "nginx-broken-config",
        status: "ready",
        error_message: null,
        ssh_user: "nginx-broken-config",
        container_id: null,
        scenario_values: null,
        active_key: null,
        created_at: now,
        ready_at: now,
        expires_at: now + 1800,
        ended_at: null,
        updated_at: now,
      })
      .execute();
    return { u, login, userId, sessionId, cookie, deploymentId };
  }

  function open(deploymentId: string, headers: Record<string, string>, query = "") {
    const ws = new WebSocket(`${base}/ws/deployments/${deploymentId}${query}`, { headers });
    const messages: any[] = [];
    ws.on("message", (d) => messages.push(JSON.parse(String(d))));
    const first = new Promise<any>((resolve) => ws.once("message", (d) => resolve(JSON.parse(String(d)))));
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
    ws.on("error", () => {});
    return { ws, messages, first, closed };
  }
  /** Open, and the first message (the current state) arrived. */
  async function accepted(deploymentId: string, headers: Record<string, string>) {
    const s = open(deploymentId, headers);
    const r = await Promise.race([s.first.then((m) => ({ m })), s.closed.then((c) => ({ c }))]);
    expect(r, JSON.stringify(r)).toHaveProperty("m");
    expect((r as { m: any }).m).toMatchObject({ type: "deployment_update", deployment_id: deploymentId, status: "ready" });
    return s;
  }

  it("accepts the sign-in cookie from a page of this site", async () => {
    const p = await player();
    const s = await accepted(p.deploymentId, { cookie: p.cookie, origin: ORIGIN });
    s.ws.close();
  });

  it("refuses the cookie without an Origin, or from any other origin", async () => {
    const p = await player();
    for (const origin of [undefined, "http://evil.example", "http://faultline.test:3001", "https://faultline.test:3000", "null", `${ORIGIN}.evil.example`]) {
      const s = open(p.deploymentId, origin === undefined ? { cookie: p.cookie } : { cookie: p.cookie, origin });
      expect(await s.closed, String(origin)).toEqual(AUTH_REQUIRED);
      expect(s.messages).toEqual([]);
    }
  });

  it("refuses a missing, forged, unknown or signed-out cookie", async () => {
    const p = await player();
    const ws = t.platform.webSessions;
    const anonymous = await ws.create({ theme: "dark" }, { userId: null });
    for (const cookie of [
      undefined,
      "__faultline=garbage",
      `__faultline=${encodeURIComponent(btoa(JSON.stringify(p.sessionId)))}`, // the id, unsigned
      (await ws.cookie.serialize("never-issued")).split(";")[0]!,
      (await ws.cookie.serialize(anonymous)).split(";")[0]!,
    ]) {
      const s = open(p.deploymentId, cookie ? { cookie, origin: ORIGIN } : { origin: ORIGIN });
      expect(await s.closed, String(cookie)).toEqual(AUTH_REQUIRED);
    }
  });

  it("takes no token from the URL; a bearer header works for programs, with no Origin or this site's", async () => {
    const p = await player();
    const inUrl = open(p.deploymentId, {}, `?token=${encodeURIComponent(p.login.access_token)}`);
    expect(await inUrl.closed).toEqual(AUTH_REQUIRED);
    const inUrlFromPage = open(p.deploymentId, { origin: ORIGIN }, `?token=${encodeURIComponent(p.login.access_token)}`);
    expect(await inUrlFromPage.closed).toEqual(AUTH_REQUIRED);
    (await accepted(p.deploymentId, { authorization: `Bearer ${p.login.access_token}` })).ws.close();
    const elsewhere = open(p.deploymentId, { authorization: `Bearer ${p.login.access_token}`, origin: "http://evil.example" });
    expect(await elsewhere.closed).toEqual(AUTH_REQUIRED);
    const bad = open(p.deploymentId, { authorization: "Bearer not-a-token" });
    expect(await bad.closed).toEqual(AUTH_REQUIRED);
  });

  it("another user's cookie gets 4404 for this deployment", async () => {
    const p = await player();
    const other = await player();
    const s = open(p.deploymentId, { cookie: other.cookie, origin: ORIGIN });
    expect(await s.closed).toEqual({ code: 4404, reason: "Deployment not found" });
  });

  it("signing out closes the sockets opened under that session, not the user's others", async () => {
    const p = await player();
    const second = await t.platform.webSessions.create({ tokens: { user_id: p.userId } }, { userId: p.userId });
    const secondCookie = (await t.platform.webSessions.cookie.serialize(second)).split(";")[0]!;
    const a = await accepted(p.deploymentId, { cookie: p.cookie, origin: ORIGIN });
    const b = await accepted(p.deploymentId, { cookie: secondCookie, origin: ORIGIN });
    await t.platform.webSessions.destroy(p.sessionId);
    expect(await a.closed).toEqual(AUTH_REQUIRED);
    // Rotation (what sign-out does in the web) ends the old id the same way.
    await t.platform.webSessions.rotate(second, { theme: "dark" }, { userId: null });
    expect(await b.closed).toEqual(AUTH_REQUIRED);
  });

  it("a password change closes every socket of the user", async () => {
    const p = await player();
    const s = await accepted(p.deploymentId, { cookie: p.cookie, origin: ORIGIN });
    const res = await t.call("PUT", "/users/me/password", {
      token: p.login.access_token,
      body: { current_password: p.u.password, new_password: "another long password" },
    });
    expect(res.status).toBe(200);
    expect(await s.closed).toEqual(AUTH_REQUIRED);
  });

  it("a session that ends without notice (row deleted, expired) is noticed by the periodic re-check", async () => {
    const p = await player();
    const s = await accepted(p.deploymentId, { cookie: p.cookie, origin: ORIGIN });
    await t.platform.db
      .updateTable("web_sessions")
      .set({ expires_at: nowSeconds() - 1 })
      .where("id_hash", "=", t.platform.webSessions.keyOf(p.sessionId))
      .execute();
    expect(await s.closed).toEqual(AUTH_REQUIRED);
  });
});
