// The web sign-in sessions (server/core/auth/web-sessions.ts) on SQLite and PostgreSQL: what the
// database holds (only the id's hash, the data encrypted), rotation, ending one or all of a
// user's sessions, and the cookie the web and the live channel share.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebSessions, sessionCookieName } from "#server/core/auth/web-sessions.ts";
import { createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";

/** The name=value part of a Set-Cookie header: what a browser sends back. */
const cookieHeader = (setCookie: string) => setCookie.split(";")[0]!;

describe.each(DATABASES)("web sessions on %s", (kind) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A signed-in session as the web makes it after a password login. */
  async function signedIn() {
    const u = await t.register();
    const login = await t.login(u);
    const data = { tokens: { access_token: login.access_token, refresh_token: login.refresh_token, access_exp: 1, user_id: login.user.id } };
    const id = await t.platform.webSessions.create(data, { userId: login.user.id });
    return { u, login, data, id, userId: login.user.id as string };
  }
  const rows = () => t.platform.db.selectFrom("web_sessions").selectAll().execute();

  it("stores neither the session id nor any token in clear", async () => {
    const { login, id, data } = await signedIn();
    const all = JSON.stringify(await rows());
    expect(all).not.toContain(id);
    expect(all).not.toContain(login.access_token);
    expect(all).not.toContain(login.refresh_token);
    // Not even a recognisable piece of them: the JWT header, the refresh token's start.
    // (Each of the JWT's parts whole: "eyJ", a JSON object's start, also turns up by chance in the
    // ciphertext's base64, ~1 run in 400.)
    for (const part of login.access_token.split(".")) expect(all).not.toContain(part);
    expect(all).not.toContain(login.refresh_token.slice(0, 12));
    expect(all).not.toContain("access_token");
    const read = await t.platform.webSessions.read(id);
    expect(read?.data).toEqual(data);
    expect(read?.userId).toBe(data.tokens.user_id);
  });

  it("a ciphertext moved to another row, a changed one, or another SESSION_SECRET reads as no session", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const ws = t.platform.webSessions;
    const keyA = ws.keyOf(a.id);
    const keyB = ws.keyOf(b.id);
    const rowA = await t.platform.db.selectFrom("web_sessions").selectAll().where("id_hash", "=", keyA).executeTakeFirstOrThrow();
    // B's row gets A's data: it must not decrypt there (the key is authenticated with it).
    await t.platform.db.updateTable("web_sessions").set({ data: rowA.data }).where("id_hash", "=", keyB).execute();
    expect(await ws.read(b.id)).toBeNull();
    // One flipped character.
    const flipped = rowA.data.slice(0, -2) + (rowA.data.at(-2) === "A" ? "B" : "A") + rowA.data.at(-1);
    await t.platform.db.updateTable("web_sessions").set({ data: flipped }).where("id_hash", "=", keyA).execute();
    expect(await ws.read(a.id)).toBeNull();
    // The same database read with another secret.
    const c = await signedIn();
    const other = createWebSessions({ db: t.platform.db, sessionSecret: "another secret of at least 32 characters!", secureCookies: false });
    expect(await other.read(c.id)).toBeNull();
    expect(await ws.read(c.id)).not.toBeNull();
  });

  it("rotation: the new id carries the data, the old id is no longer valid, and its end is announced", async () => {
    const ws = t.platform.webSessions;
    const before = await ws.create({ theme: "dark" }, { userId: null });
    const { login, data, userId } = await signedIn();
    const ended: unknown[] = [];
    const off = ws.onEnded((e) => ended.push(e));
    const after = await ws.rotate(before, { theme: "dark", ...data }, { userId });
    off();
    expect(after).not.toBe(before);
    expect(await ws.read(before)).toBeNull();
    expect((await ws.read(after))?.data).toMatchObject({ theme: "dark", tokens: { access_token: login.access_token } });
    expect(ended).toEqual([{ userId: null, key: ws.keyOf(before) }]);
    // An id nobody issued rotates into a fresh session too (nothing to end).
    const fresh = await ws.rotate("never-issued", { theme: "light" }, { userId: null });
    expect((await ws.read(fresh))?.data).toEqual({ theme: "light" });
  });

  it("destroy ends one session; destroyAllForUser every session of that user and nobody else's", async () => {
    const ws = t.platform.webSessions;
    const a = await signedIn();
    const second = await ws.create(a.data, { userId: a.userId });
    const b = await signedIn();
    await ws.destroy(a.id);
    expect(await ws.read(a.id)).toBeNull();
    expect(await ws.read(second)).not.toBeNull();
    const third = await ws.create(a.data, { userId: a.userId });
    const ended: unknown[] = [];
    const off = ws.onEnded((e) => ended.push(e));
    await ws.destroyAllForUser(a.userId);
    off();
    expect(await ws.read(second)).toBeNull();
    expect(await ws.read(third)).toBeNull();
    expect(await ws.read(b.id)).not.toBeNull();
    expect(ended).toEqual([{ userId: a.userId, key: null }]);
  });

  it("a password change signs the user's browsers out everywhere", async () => {
    const a = await signedIn();
    const other = await signedIn();
    const res = await t.call("PUT", "/users/me/password", {
      token: a.login.access_token,
      body: { current_password: a.u.password, new_password: "a brand new password" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await t.platform.webSessions.read(a.id)).toBeNull();
    expect(await t.platform.webSessions.read(other.id)).not.toBeNull();
  });

  it("expired sessions read as none and are swept when sessions are created", async () => {
    const ws = t.platform.webSessions;
    const old = await ws.create({ theme: "dark" }, { userId: null, expiresAt: Math.floor(Date.now() / 1000) - 1 });
    expect(await ws.read(old)).toBeNull();
    await ws.create({}, { userId: null });
    expect((await rows()).some((r) => r.id_hash === ws.keyOf(old))).toBe(false);
  });

  it("the cookie: signed, HttpOnly, SameSite=Lax; __Host- with Secure over https; a forged or unknown id is no user", async () => {
    const a = await signedIn();
    const ws = t.platform.webSessions;
    const set = await ws.cookie.serialize(a.id);
    expect(set).toMatch(/^__faultline=/);
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Lax/);
    expect(set).toMatch(/Path=\//);
    expect(set).not.toMatch(/Domain=/i);
    expect(await ws.fromCookieHeader(cookieHeader(set))).toEqual({ key: ws.keyOf(a.id), userId: a.userId });
    // The raw id without the signature, another session's signature, an id never issued.
    expect(await ws.fromCookieHeader(`__faultline=${encodeURIComponent(btoa(JSON.stringify(a.id)))}`)).toBeNull();
    expect(await ws.fromCookieHeader(cookieHeader(await ws.cookie.serialize("never-issued")))).toBeNull();
    expect(await ws.fromCookieHeader(undefined)).toBeNull();
    // A session without a user (pre-login state) authenticates nobody.
    const anon = await ws.create({ theme: "dark" }, { userId: null });
    expect(await ws.fromCookieHeader(cookieHeader(await ws.cookie.serialize(anon)))).toBeNull();

    expect(sessionCookieName(true)).toBe("__Host-faultline");
    const secure = createWebSessions({ db: t.platform.db, sessionSecret: "s".repeat(40), secureCookies: true });
    const secureSet = await secure.cookie.serialize("x");
    expect(secureSet).toMatch(/^__Host-faultline=/);
    expect(secureSet).toMatch(/; Secure/);
    expect(secureSet).toMatch(/Path=\//);
    expect(secureSet).not.toMatch(/Domain=/i);
  });
});
