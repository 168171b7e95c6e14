// Personal API tokens (shared/contract/personal-tokens.ts, server/core/auth/personal-tokens.ts):
// made, listed and revoked with a sign-in's token; taken by the API as `Bearer flt_...` within
// their scope, which each operation declares (`personalToken`) and the access guard alone
// enforces. The scope matrix walks the whole operation table with an admin's tokens. Then the
// attacks: another user's token and rows, a revoke racing uses, odd paths, methods and headers.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PERSONAL_TOKEN_PATTERN, PERSONAL_TOKEN_TEXTS, PERSONAL_TOKENS_MAX } from "#shared/contract/personal-tokens.ts";
import { nowSeconds } from "#server/db/index.ts";
import { createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";
import { expectError } from "./assertions.ts";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const PLACEHOLDER_ID = "00000000-0000-4000-8000-000000000000";
const pathOf = (path: string) => path.replace(/:(\w+)/g, (_, k: string) => (k === "id" || k.endsWith("Id") ? PLACEHOLDER_ID : "x"));

/** Areas no personal token may reach, whatever its scope: read from the table, not listed by name. */
const SENSITIVE_TAGS = ["Admin", "Billing", "Two-factor", "Authentication", "OAuth", "API tokens"];
/** The one operation of the tokens' area a personal token may call: reading its own description
 *  (id, name, scope, expiry; never a token), for a command line's login and status. */
const SELF_DESCRIPTION = "GET /tokens/current";
const isSensitive = (op: { method: string; path: string; tags: readonly string[]; access: string }) =>
  op.access === "admin" ||
  op.access === "service" ||
  (op.tags.some((t) => SENSITIVE_TAGS.includes(t)) && `${op.method} ${op.path}` !== SELF_DESCRIPTION) ||
  // The account and its settings: /users/me and below, but for the caller's own recordings.
  (/^\/users\/me(\/|$)/.test(op.path) && !op.path.startsWith("/users/me/recordings"));
/** What `play` adds to `read`: a deployment's start, reset and terminate, and an answer. */
const isPlayAction = (op: { method: string; path: string }) =>
  op.method === "POST" && /^\/challenges\/:id\/(session\/(start|reset|terminate)|submit)$/.test(op.path);

describe.each(DATABASES)("personal API tokens on %s", (kind) => {
  let t: TestPlatform;
  let player: string;
  let playerId: string;
  let admin: string;
  let adminId: string;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { env: { RUNTIME: "none" } });
    const p = await t.registerVerified();
    playerId = p.user.id;
    player = (await t.login(p)).access_token;
    const a = await t.registerVerified();
    adminId = a.user.id;
    await t.platform.accounts.setAdmin(a.username, true);
    admin = (await t.login(a)).access_token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const make = async (token: string, body: Record<string, unknown> = {}) => {
    const res = await t.call("POST", "/users/me/tokens", { token, body: { name: "cli", scope: "read", ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; token: string; scope: string; expires_at: number | null; created_at: number };
  };
  const row = (id: string) => t.platform.db.selectFrom("personal_tokens").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const list = async (token: string) => {
    const res = await t.call("GET", "/users/me/tokens", { token });
    expect(res.status).toBe(200);
    return res.body.tokens as any[];
  };

  it("is made with a recognisable prefix, shown once, and kept only as its SHA-256", async () => {
    const made = await make(player, { name: "laptop", scope: "play", expires_in_days: "30" });
    expect(made.token).toMatch(PERSONAL_TOKEN_PATTERN);
    expect(made.scope).toBe("play");
    expect(made.expires_at).toBe(made.created_at + 30 * 86400);
    const stored = await row(made.id);
    expect(stored.token_hash).toBe(sha256(made.token));
    // No column of the row holds the token or its random part.
    expect(JSON.stringify(stored)).not.toContain(made.token.slice(4));
    // The list never shows it again.
    const listed = await list(player);
    const mine = listed.find((x) => x.id === made.id);
    expect(mine).toMatchObject({ name: "laptop", scope: "play", expired: false, last_used_at: null });
    expect(JSON.stringify(listed)).not.toContain(made.token.slice(4));
    expect("token" in mine).toBe(false);
    // It works as a bearer token for what its scope allows.
    expect((await t.call("GET", "/challenges/active-session", { token: made.token })).status).not.toBe(401);
  });

  it("making and revoking are in the audit log, without the token", async () => {
    const made = await make(player, { name: "audited", scope: "play" });
    expect((await t.call("DELETE", `/users/me/tokens/${made.id}`, { token: player })).status).toBe(200);
    const entries = await t.platform.db
      .selectFrom("audit_log")
      .select(["action", "actor_id", "detail"])
      .where("action", "in", ["api_token.created", "api_token.revoked"])
      .where("actor_id", "=", playerId)
      .execute();
    const about = entries.filter((e) => String(e.detail).includes(made.id));
    expect(about.map((e) => e.action).sort()).toEqual(["api_token.created", "api_token.revoked"]);
    expect(JSON.stringify(entries)).not.toContain(made.token.slice(4));
  });

  it("offers 30, 90, 365 days or no expiry, and refuses others and bad names", async () => {
    expect((await make(player, { expires_in_days: "none" })).expires_at).toBeNull();
    const d365 = await make(player, { expires_in_days: "365" });
    expect(d365.expires_at).toBe(d365.created_at + 365 * 86400);
    const dflt = await make(player, { expires_in_days: undefined });
    expect(dflt.expires_at).toBe(dflt.created_at + 90 * 86400);
    expectError(await t.call("POST", "/users/me/tokens", { token: player, body: { name: "x", scope: "read", expires_in_days: "7" } }), 400);
    expectError(await t.call("POST", "/users/me/tokens", { token: player, body: { name: "x", scope: "admin" } }), 400);
    expectError(await t.call("POST", "/users/me/tokens", { token: player, body: { name: "   ", scope: "read" } }), 400);
    expectError(await t.call("POST", "/users/me/tokens", { token: player, body: { name: "x".repeat(65), scope: "read" } }), 400);
  });

  describe("the scope matrix, operation by operation (an admin's tokens)", () => {
    let read: string;
    let play: string;
    beforeAll(async () => {
      read = (await make(admin, { scope: "read" })).token;
      play = (await make(admin, { scope: "play" })).token;
    });
    const call = (method: string, path: string, token: string) =>
      t.call(method, pathOf(path), { token, ...(method === "GET" || method === "DELETE" ? {} : { body: {} }) });
    const refusedByScope = (res: { status: number; body: any }) => res.status === 403 && res.body?.detail === PERSONAL_TOKEN_TEXTS.scope;

    it("the table opens reads to GETs a user may call, and play only to a deployment's actions and answers", () => {
      for (const { op } of t.platform.api.routes()) {
        if (!op.personalToken) continue;
        const label = `${op.method} ${op.path} (${op.name})`;
        expect(isSensitive(op), label).toBe(false);
        if (op.personalToken === "read") expect(op.method, label).toBe("GET");
        else expect(isPlayAction(op), label).toBe(true);
      }
      // Every play action is open to play tokens.
      const plays = t.platform.api.routes().filter(({ op }) => isPlayAction(op));
      expect(plays.length).toBeGreaterThanOrEqual(4);
      for (const { op } of plays) expect(op.personalToken, op.name).toBe("play");
    });

    it("each token is let through exactly what its scope allows and refused with 403 elsewhere", async () => {
      let admitted = 0;
      for (const { method, path, op } of t.platform.api.routes()) {
        for (const [scope, token] of [
          ["read", read],
          ["play", play],
        ] as const) {
          const res = await call(method, path, token);
          const label = `${method} ${path} with a ${scope} token: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`;
          const allowed = op.personalToken === "read" || (op.personalToken === "play" && scope === "play");
          if (isSensitive(op) || !allowed) {
            expect(refusedByScope(res), label).toBe(true);
          } else {
            admitted += 1;
            // Past the guard the operation answers for itself (a placeholder is not found...).
            expect(res.status, label).not.toBe(401);
            expect(refusedByScope(res), label).toBe(false);
          }
        }
      }
      expect(admitted).toBeGreaterThan(20);
    });

    it("the same admin's sign-in token still reaches the admin operations", async () => {
      expect((await t.call("GET", "/admin/users", { token: admin })).status).toBe(200);
      expectError(await t.call("GET", "/admin/users", { token: play }), 403, PERSONAL_TOKEN_TEXTS.scope);
    });

    it("a personal token cannot list, make or revoke tokens, or step up", async () => {
      expectError(await t.call("GET", "/users/me/tokens", { token: play }), 403);
      expectError(await t.call("POST", "/users/me/tokens", { token: play, body: { name: "more", scope: "play" } }), 403);
      expectError(await t.call("DELETE", `/users/me/tokens/${PLACEHOLDER_ID}`, { token: play }), 403);
      expectError(await t.call("PUT", "/users/me/password", { token: play, body: { current_password: "x", new_password: "y".repeat(12) } }), 403);
      expectError(await t.call("POST", "/auth/resend-verification", { token: play, body: {} }), 403);
    });
  });

  it("GET /tokens/current describes the personal token in use (never the token); a sign-in's token has none (404)", async () => {
    const made = await make(player, { name: "terminal", scope: "play", expires_in_days: "30" });
    const res = await t.call("GET", "/tokens/current", { token: made.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { username } = (await t.call("GET", "/users/me", { token: player })).body;
    expect(res.body).toEqual({ id: made.id, name: "terminal", scope: "play", expires_at: made.expires_at, username });
    expect(JSON.stringify(res.body)).not.toContain(made.token.slice(4));
    const read = await make(player, { name: "reader", scope: "read", expires_in_days: "none" });
    expect((await t.call("GET", "/tokens/current", { token: read.token })).body).toMatchObject({ id: read.id, scope: "read", expires_at: null });
    expectError(await t.call("GET", "/tokens/current", { token: player }), 404, PERSONAL_TOKEN_TEXTS.notPersonal);
    expectError(await t.call("GET", "/tokens/current", {}), 401);
    expectError(await t.call("GET", "/tokens/current", { token: `flt_${"A".repeat(43)}` }), 401, "Invalid or expired token");
    expect((await t.call("DELETE", `/users/me/tokens/${made.id}`, { token: player })).status).toBe(200);
    expectError(await t.call("GET", "/tokens/current", { token: made.token }), 401, "Invalid or expired token");
  });

  it("an expired token is refused with the usual 401, also where no credential is needed", async () => {
    const made = await make(player);
    expect((await t.call("GET", "/leaderboard", { token: made.token })).status).toBe(200);
    await t.platform.db.updateTable("personal_tokens").set({ expires_at: nowSeconds() }).where("id", "=", made.id).execute();
    expectError(await t.call("GET", "/challenges/active-session", { token: made.token }), 401, "Invalid or expired token");
    expectError(await t.call("GET", "/leaderboard", { token: made.token }), 401);
    expect((await list(player)).find((x) => x.id === made.id)?.expired).toBe(true);
  });

  it("a revoked token stops at once (nothing remembers it), and is revoked once", async () => {
    const made = await make(player);
    for (let i = 0; i < 3; i++) expect((await t.call("GET", "/challenges/active-session", { token: made.token })).status).not.toBe(401);
    const res = await t.call("DELETE", `/users/me/tokens/${made.id}`, { token: player });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(PERSONAL_TOKEN_TEXTS.revoked);
    expectError(await t.call("GET", "/challenges/active-session", { token: made.token }), 401, "Invalid or expired token");
    expect((await list(player)).some((x) => x.id === made.id)).toBe(false);
    expectError(await t.call("DELETE", `/users/me/tokens/${made.id}`, { token: player }), 404, PERSONAL_TOKEN_TEXTS.notFound);
  });

  it("a revoke racing uses: once it has answered, no use succeeds", async () => {
    const made = await make(player);
    const uses = Array.from({ length: 20 }, () => t.call("GET", "/challenges/active-session", { token: made.token }));
    const revoked = t.call("DELETE", `/users/me/tokens/${made.id}`, { token: player });
    await Promise.all(uses);
    expect((await revoked).status).toBe(200);
    const after = await Promise.all(Array.from({ length: 5 }, () => t.call("GET", "/challenges/active-session", { token: made.token })));
    for (const r of after) expect(r.status).toBe(401);
  });

  it("a disabled account's tokens stop working", async () => {
    const u = await t.registerVerified();
    const login = (await t.login(u)).access_token;
    const made = await make(login, { scope: "play" });
    expect((await t.call("GET", "/challenges/active-session", { token: made.token })).status).not.toBe(401);
    expect((await t.call("POST", `/admin/users/${u.user.id}/disable`, { token: admin, body: {} })).status).toBe(200);
    expectError(await t.call("GET", "/challenges/active-session", { token: made.token }), 401);
    expectError(await t.call("GET", "/leaderboard", { token: made.token }), 401);
    expectError(await t.call("POST", `/challenges/${PLACEHOLDER_ID}/submit`, { token: made.token, body: { answer: "x" } }), 401);
  });

  it("another user cannot list or revoke your tokens, and a token speaks only for its owner", async () => {
    const other = await t.registerVerified();
    const otherLogin = (await t.login(other)).access_token;
    const mine = await make(player, { scope: "read" });
    const theirs = await list(otherLogin);
    expect(theirs.some((x) => x.id === mine.id)).toBe(false);
    expectError(await t.call("DELETE", `/users/me/tokens/${mine.id}`, { token: otherLogin }), 404, PERSONAL_TOKEN_TEXTS.notFound);
    expect((await row(mine.id)).user_id).toBe(playerId);
    // Still works, and names its owner wherever the API says who is asking.
    const res = await t.call("GET", `/challenges/active-session`, { token: mine.token });
    expect(res.status).not.toBe(401);
    const mineListed = await list(player);
    expect(mineListed.some((x) => x.id === mine.id)).toBe(true);
    expect(adminId).not.toBe(playerId);
  });

  it("last used moves at most once a minute per token", async () => {
    const made = await make(player);
    const lastUsed = async () => (await row(made.id)).last_used_at;
    const use = () => t.call("GET", "/challenges/active-session", { token: made.token });
    await use();
    const first = await lastUsed();
    expect(first).not.toBeNull();
    expect(Math.abs(Number(first) - nowSeconds())).toBeLessThanOrEqual(2);
    // Within the minute: no write, even after many uses.
    const earlier = nowSeconds() - 30;
    await t.platform.db.updateTable("personal_tokens").set({ last_used_at: earlier }).where("id", "=", made.id).execute();
    for (let i = 0; i < 5; i++) await use();
    expect(Number(await lastUsed())).toBe(earlier);
    // A minute on: the next use writes, once.
    await t.platform.db
      .updateTable("personal_tokens")
      .set({ last_used_at: nowSeconds() - 61 })
      .where("id", "=", made.id)
      .execute();
    await Promise.all(Array.from({ length: 5 }, use));
    expect(Math.abs(Number(await lastUsed()) - nowSeconds())).toBeLessThanOrEqual(2);
    expect((await list(player)).find((x) => x.id === made.id)?.last_used_at).toBe(Number(await lastUsed()));
  });

  it(`holds at most ${PERSONAL_TOKENS_MAX} working tokens per user, with a clear error; expired ones do not count`, async () => {
    const u = await t.registerVerified();
    const login = (await t.login(u)).access_token;
    // One more than the limit at once: the count and the insert are one step per user.
    const made = await Promise.all(
      Array.from({ length: PERSONAL_TOKENS_MAX + 1 }, (_, i) => t.call("POST", "/users/me/tokens", { token: login, body: { name: `t${i}`, scope: "read" } })),
    );
    expect(made.filter((r) => r.status === 201)).toHaveLength(PERSONAL_TOKENS_MAX);
    expectError(
      made.find((r) => r.status !== 201)!,
      429,
      PERSONAL_TOKEN_TEXTS.limit,
    );
    expectError(await t.call("POST", "/users/me/tokens", { token: login, body: { name: "one more", scope: "read" } }), 429, PERSONAL_TOKEN_TEXTS.limit);
    await t.platform.db
      .updateTable("personal_tokens")
      .set({ expires_at: nowSeconds() - 1 })
      .where("id", "=", made.find((r) => r.status === 201)!.body.id)
      .execute();
    expect((await t.call("POST", "/users/me/tokens", { token: login, body: { name: "one more", scope: "read" } })).status).toBe(201);
  });

  describe("attacks on the header, the path and the method", () => {
    let read: string;
    beforeAll(async () => {
      read = (await make(player, { scope: "read" })).token;
    });

    it("malformed, huge, altered or doubled tokens are 401 (and never a 500)", async () => {
      const headers = [
        `Bearer flt_`,
        `Bearer flt_${"A".repeat(100_000)}`,
        `Bearer ${read}x`,
        `Bearer ${read.slice(0, -1)}${read.endsWith("A") ? "B" : "A"}`,
        `Bearer ${read.toUpperCase()}`,
        `Bearer ${read}, Bearer ${player}`,
        `Bearer flt_${"\u00e9".repeat(43)}`,
        `Bearer flt_${"%00".repeat(15)}`,
        `Bearer  ${read.replace("flt_", "FLT_")}`,
      ];
      for (const authorization of headers) {
        const res = await t.call("GET", "/challenges/active-session", { headers: { authorization } });
        expect(res.status, authorization.slice(0, 60)).toBe(401);
        expect(res.body.detail).toBeTypeOf("string");
      }
      // The scheme's case and extra spaces do not matter, as for sign-in tokens.
      expect((await t.call("GET", "/challenges/active-session", { headers: { authorization: `bearer   ${read}  ` } })).status).not.toBe(401);
    });

    it("a read token cannot play through other methods, method-override headers, or odd paths", async () => {
      const start = `/challenges/${PLACEHOLDER_ID}/session/start`;
      expectError(await t.call("POST", start, { token: read, body: {} }), 403, PERSONAL_TOKEN_TEXTS.scope);
      expectError(await t.call("POST", `${start}/`, { token: read, body: {} }), 403, PERSONAL_TOKEN_TEXTS.scope);
      expectError(await t.call("POST", `/challenges/${PLACEHOLDER_ID}/active-session`, { token: read, headers: { "x-http-method-override": "GET" } }), 405);
      expectError(
        await t.call("POST", `/challenges/${PLACEHOLDER_ID}/submit`, { token: read, body: { answer: "x" }, headers: { "x-http-method-override": "GET" } }),
        403,
        PERSONAL_TOKEN_TEXTS.scope,
      );
      // Encoded separators do not reach another route.
      for (const path of [`/challenges/x%2Fsession%2Fstart`, `/users/me%2Ftokens`, `/admin%2Fusers`, `/users/%6De/tokens`]) {
        const res = await t.call("POST", path, { token: read, body: {} });
        expect([403, 404, 405], `${path}: ${res.status}`).toContain(res.status);
      }
      const adminish = await t.call("GET", "//admin/users", { token: read });
      expect([403, 404]).toContain(adminish.status);
    });

    it("a personal token is not a sign-in token anywhere else (its hash is no JWT)", async () => {
      await expect(t.platform.tokens.verifyAccess(read)).rejects.toThrow("Invalid or expired token");
    });
  });
});
