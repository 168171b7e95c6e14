// Every API input is validated: whatever a client sends, the answer is a JSON error with a 4xx
// status, never a 500 (and never a thrown exception out of the handler).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";
import { expectError } from "./assertions.ts";

/** Every route with the fields its body takes (spec section 7 and docs/api.md). */
const ROUTES: { method: string; path: string; fields: string[]; auth?: boolean }[] = [
  { method: "POST", path: "/auth/register", fields: ["username", "email", "password"] },
  { method: "POST", path: "/auth/login", fields: ["username_or_email", "password"] },
  { method: "POST", path: "/auth/login/2fa", fields: ["mfa_token", "code", "recovery_code"] },
  { method: "POST", path: "/auth/refresh", fields: ["refresh_token"] },
  { method: "POST", path: "/auth/logout", fields: ["refresh_token"] },
  { method: "GET", path: "/auth/validate", fields: [], auth: true },
  { method: "POST", path: "/auth/verify-email", fields: ["token"] },
  { method: "POST", path: "/auth/resend-verification", fields: ["email"] },
  { method: "POST", path: "/auth/resend-verification", fields: ["email"], auth: true },
  { method: "GET", path: "/auth/oauth/github/login", fields: [] },
  { method: "POST", path: "/auth/oauth/github/callback", fields: ["code", "state"] },
  { method: "POST", path: "/auth/oauth/google/callback", fields: ["code", "state"] },
  { method: "GET", path: "/auth/oauth/providers", fields: [] },
  { method: "POST", path: "/auth/2fa/setup", fields: ["current_password"], auth: true },
  { method: "GET", path: "/auth/2fa", fields: [], auth: true },
  { method: "POST", path: "/auth/2fa/recovery-codes", fields: ["current_password", "code", "recovery_code"], auth: true },
  { method: "POST", path: "/auth/2fa/removal", fields: ["mfa_token"] },
  { method: "POST", path: "/auth/2fa/removal/confirm", fields: ["token"] },
  { method: "POST", path: "/auth/2fa/verify", fields: ["token", "secret"], auth: true },
  { method: "GET", path: "/users/me", fields: [], auth: true },
  { method: "PATCH", path: "/users/me", fields: ["display_name", "bio", "location", "theme"], auth: true },
  { method: "PUT", path: "/users/me/password", fields: ["current_password", "new_password"], auth: true },
  {
    method: "PUT",
    path: "/users/me/notifications",
    fields: ["newChallenges", "solutionFeedback", "leaderboardUpdates", "marketingEmails"],
    auth: true,
  },
  { method: "GET", path: "/users/me/ssh-key", fields: [], auth: true },
  { method: "POST", path: "/users/me/ssh-key/nonce", fields: [], auth: true },
  { method: "PUT", path: "/users/me/ssh-key", fields: ["ssh_public_key_b64", "nonce", "signature", "current_password", "code"], auth: true },
  { method: "DELETE", path: "/users/me/ssh-key", fields: ["current_password", "code"], auth: true },
  { method: "POST", path: "/auth/2fa/disable", fields: ["current_password", "code", "recovery_code"], auth: true },
];

/** Raw bodies that are not what any endpoint takes. */
const RAW_BODIES = ["{", "not json", "<xml/>", "null", "[]", "[{}]", '"text"', "42", "true", "{}", "[".repeat(5000), "\u0000"];

/** Values that are the wrong type or shape for any field. */
const BAD_VALUES: unknown[] = [
  null,
  42,
  -1.5,
  true,
  [],
  ["a"],
  {},
  { $gt: "" },
  "",
  " ",
  "x".repeat(100_000),
  "nul\u0000byte",
  "\ud800",
  "🙂".repeat(40),
  "' OR 1=1 --",
  "%00",
  "../../etc/passwd",
];

describe.each(DATABASES)("input validation on %s", (kind) => {
  let t: TestPlatform;
  let token: string;
  beforeAll(async () => {
    t = await createTestPlatform(kind, {
      // Configured, so the OAuth routes get as far as validating their input. The URLs are
      // never reached: every request here is refused before.
      env: {
        GITHUB_CLIENT_ID: "id",
        GITHUB_CLIENT_SECRET: "secret",
        GITHUB_TOKEN_URL: "http://127.0.0.1:9/token",
        GOOGLE_CLIENT_ID: "id",
        GOOGLE_CLIENT_SECRET: "secret",
        GOOGLE_TOKEN_URL: "http://127.0.0.1:9/token",
      },
    });
    const u = await t.register();
    token = (await t.login(u)).access_token;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Sends and checks: a 4xx JSON error or a success, never a 5xx. */
  async function probe(method: string, path: string, body: unknown, auth: boolean) {
    const res = await t.call(method, path, { body, token: auth ? token : undefined });
    const what = `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`;
    expect(res.status, what).toBeLessThan(500);
    expect(res.body, what).toBeTypeOf("object");
    if (res.status >= 400) expect(typeof res.body?.detail, what).toBe("string");
    return res;
  }

  it.each(ROUTES.filter((r) => r.method !== "GET"))(
    "$method $path (auth: $auth) refuses bodies that are not its JSON object",
    async ({ method, path, fields, auth }) => {
      for (const raw of RAW_BODIES) {
        const res = await probe(method, path, raw, !!auth);
        // Endpoints that read a body say 400 for one that is not JSON.
        if (fields.length && !["{}", "null", "[]", "[{}]", '"text"', "42", "true"].includes(raw)) {
          expect(res.status, `${method} ${path} ${raw.slice(0, 20)}`).toBe(400);
        }
      }
    },
  );

  it.each(ROUTES.filter((r) => r.fields.length))(
    "$method $path (auth: $auth) answers 4xx for wrong values in every field",
    async ({ method, path, fields, auth }) => {
      for (const field of fields) {
        for (const value of BAD_VALUES) {
          await probe(method, path, { [field]: value }, !!auth);
          // The same bad value with every other field plausible.
          await probe(method, path, { ...Object.fromEntries(fields.map((f) => [f, "plausible-value-1"])), [field]: value }, !!auth);
        }
      }
    },
  );

  it("keeps the user untouched after the barrage", async () => {
    const me = await t.call("GET", "/users/me", { token });
    expect(me.status).toBe(200);
    expect(me.body.has_ssh_key).toBe(false);
    expect(me.body.totp_enabled).toBe(false);
  });

  it("answers GET routes without trouble, signed in or not", async () => {
    for (const { method, path } of ROUTES.filter((r) => r.method === "GET")) {
      await probe(method, path, undefined, true);
      await probe(method, path, undefined, false);
    }
  });

  it("answers 4xx for bad path parameters", async () => {
    for (const path of [
      "/users/%E0%A4%A",
      "/users/%ZZ",
      "/users/nul%00byte",
      `/users/${"x".repeat(5000)}`,
      "/users/%27%20OR%201%3D1%20--",
      "/auth/oauth/%ZZ/login",
    ]) {
      await probe("GET", path, undefined, false);
    }
  });

  it("names the trouble: malformed percent-encoding, NUL characters (which PostgreSQL cannot store)", async () => {
    expectError(await t.call("GET", "/users/%ZZ"), 400, /percent-encoding/);
    expectError(await t.call("GET", "/users/nul%00byte"), 400, /NUL/);
    expectError(
      await t.call("POST", "/auth/login", { body: { username_or_email: "a\u0000b", password: "whatever1" } }),
      400,
      /username_or_email: must not contain NUL/,
    );
    expectError(await t.call("PATCH", "/users/me", { token, body: { bio: ["x"], display_name: "\u0000" } }), 400, /display_name/);
  });

  it("refuses an unknown OAuth provider with a 4xx naming it, not a 500", async () => {
    for (const provider of ["facebook", "GitHub", "gitlab", "__proto__", "constructor"]) {
      const login = await probe("GET", `/auth/oauth/${provider}/login`, undefined, false);
      expect([400, 404]).toContain(login.status);
      const cb = await probe("POST", `/auth/oauth/${provider}/callback`, { code: "c", state: "s" }, false);
      expect([400, 404]).toContain(cb.status);
      expect(cb.body.detail).toMatch(/provider/i);
    }
  });

  it("answers unknown routes with 404 and wrong methods with 405, as JSON", async () => {
    expectError(await t.call("GET", "/nope"), 404);
    expectError(await t.call("GET", "/auth/login"), 405);
    // DELETE /users/me deletes the account (account-routes.ts): POST is the method it lacks.
    expectError(await t.call("POST", "/users/me", { token }), 405);
    // A known route next to them answers 200 with its JSON: the health report (tests/integration/
    // health.test.ts checks it in full). This platform runs no gateway or worker, so it may be degraded.
    const health = await t.call("GET", "/health");
    expect(health.status).toBe(200);
    expect(["ok", "degraded"]).toContain(health.body.status);
    expect(health.body.components.database).toEqual({ status: "ok" });
  });
});
