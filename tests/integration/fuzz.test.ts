// Fuzzing every operation of the OpenAPI document (server/api/openapi.ts), as a visitor, a
// signed-in player and an admin: wrong types, missing fields, huge strings, NUL, unicode oddities,
// negative and huge numbers, deep nesting, bodies that are not JSON or not JSON at all, odd
// query strings and path parameters with odd encodings. Whatever arrives, the answer is never
// a 5xx, and every error has the documented shape {"detail": "<text>"}.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenApiDocument, OpenApiOperation } from "#server/api/openapi.ts";
import { createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";

const deep = (n: number): unknown => {
  let v: unknown = "x";
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};

const ODD_STRINGS = [
  "",
  " ",
  "x".repeat(70_000),
  "nul\u0000byte",
  "\ud800",
  "\u202e\u0301\u200b",
  "\ufeff",
  "🙂".repeat(40),
  "Ａｄｍｉｎ",
  "' OR 1=1 --",
  "%00",
  "../../etc/passwd",
  "1e400",
  "NaN",
  "-0",
];

/** Values of the wrong type or at the edges, for any body field. */
const BAD_VALUES: unknown[] = [null, 0, -1, -1.5, 2 ** 53 + 1, 1e308, -1e308, true, [], ["a"], [null], {}, { $gt: "" }, deep(2_000), ...ODD_STRINGS];

/** Raw bodies, each sent with a JSON content type and some with other types. */
const RAW_BODIES = [
  "{",
  "not json",
  "<xml/>",
  "null",
  "[]",
  "[{}]",
  '"text"',
  "42",
  "true",
  "{}",
  "[".repeat(5_000),
  '{"a":'.repeat(3_000),
  "\u0000",
  '{"__proto__":{"is_admin":true}}',
  '{"constructor":{"prototype":{}}}',
  `${'{"a":'.repeat(20_000)}"x"${"}".repeat(20_000)}`,
  `${"[".repeat(20_000)}${"]".repeat(20_000)}`,
];
const OTHER_CONTENT_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=utf-16"];

/** Query values, as they arrive: text. */
const QUERY_VALUES = ["", "x".repeat(5_000), "-1", "0", "1.5", "1e400", "NaN", "99999999999999999999", "🙂", "\u0000", "%", "true", "[]"];

/** Path parameter values, already encoded as they would appear in the URL. */
const PATH_VALUES = [
  "x",
  "%00",
  "%E0%A4%A",
  "%ZZ",
  "%2e%2e%2f%2e%2e",
  "..",
  "%F0%9F%99%82",
  "a".repeat(3_000),
  "-1",
  "9".repeat(30),
  "me",
  "%20",
  "%25",
  "00000000-0000-0000-0000-000000000000",
  "nginx-broken-config",
  "github",
  "%C0%AF",
  "%EF%BF%BF",
];

interface Probe {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
}

/** Every probe for one operation: path values, query values, bodies. */
function probes(path: string, method: string, op: OpenApiOperation, defaults: Record<string, string>): Probe[] {
  const out: Probe[] = [];
  const pathParams = op.parameters.filter((p) => p.in === "path").map((p) => p.name);
  const fill = (over: Record<string, string> = {}) => path.replace(/\{(\w+)\}/g, (_, k: string) => over[k] ?? defaults[k] ?? "x");
  const M = method.toUpperCase();
  for (const name of pathParams) for (const v of PATH_VALUES) out.push({ method: M, path: fill({ [name]: v }) });
  const base = fill();
  for (const q of op.parameters.filter((p) => p.in === "query")) {
    for (const v of QUERY_VALUES) out.push({ method: M, path: `${base}?${q.name}=${encodeURIComponent(v)}` });
    out.push(
      { method: M, path: `${base}?${q.name}=1&${q.name}=2` },
      { method: M, path: `${base}?${q.name}[]=1` },
      { method: M, path: `${base}?${q.name}=%ZZ` },
    );
  }
  if (M !== "GET") {
    for (const raw of RAW_BODIES) out.push({ method: M, path: base, body: raw, contentType: "application/json" });
    for (const ct of OTHER_CONTENT_TYPES) out.push({ method: M, path: base, body: "a=1&b=2", contentType: ct });
    const schema = op.requestBody?.content["application/json"]?.schema as { properties?: Record<string, unknown> } | undefined;
    for (const field of Object.keys(schema?.properties ?? {})) {
      for (const v of BAD_VALUES) out.push({ method: M, path: base, body: JSON.stringify({ [field]: v }), contentType: "application/json" });
    }
  }
  return out;
}

describe.each(DATABASES)("fuzzing every documented operation on %s", (kind) => {
  let t: TestPlatform;
  let doc: OpenApiDocument;
  const tokens: Record<string, string | undefined> = { visitor: undefined };
  let username = "";
  beforeAll(async () => {
    // No engine: a start that passes validation answers 503, and nothing is really deployed.
    // OAuth configured, so its routes get past "not configured"; the provider's URLs are a
    // closed port, never reached by a request that fails validation.
    t = await createTestPlatform(kind, {
      env: {
        RUNTIME: "none",
        GITHUB_CLIENT_ID: "id",
        GITHUB_CLIENT_SECRET: "secret",
        GITHUB_TOKEN_URL: "http://127.0.0.1:9/token",
        GOOGLE_CLIENT_ID: "id",
        GOOGLE_CLIENT_SECRET: "secret",
        GOOGLE_TOKEN_URL: "http://127.0.0.1:9/token",
      },
    });
    doc = t.platform.api.openapi();
    const player = await t.registerVerified();
    username = player.username;
    tokens.player = (await t.login(player)).access_token;
    const admin = await t.registerVerified();
    await t.platform.accounts.setAdmin(admin.username, true);
    tokens.admin = (await t.login(admin)).access_token;
  });
  afterAll(() => t?.close());

  it("answers no 5xx and only documented errors", async () => {
    const defaults = { id: "nginx-broken-config", provider: "github", username };
    const failures: string[] = [];
    let sent = 0;
    const started = Date.now();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        // Operations whose ids are user ids or deployment ids get a well-formed one by default.
        const ids = /^\/(admin\/users|deployments)\//.test(path) ? { ...defaults, id: "00000000-0000-0000-0000-000000000000" } : defaults;
        // Each probe goes to whoever gets past the operation's access check, where validation
        // runs; the others would only be refused the same way each time, so they get a sample.
        const access = op["x-access"];
        const full = access === "admin" ? ["admin"] : access === "public" || access === "optional-user" ? ["visitor", "player"] : ["player"];
        for (const [i, p] of probes(path, method, op, ids).entries()) {
          for (const [who, token] of Object.entries(tokens)) {
            if (!full.includes(who) && i % 10 !== 0) continue;
            const headers: Record<string, string> = { accept: "application/json" };
            if (p.contentType) headers["content-type"] = p.contentType;
            if (token) headers.authorization = `Bearer ${token}`;
            const res = await t.platform.api.handle(new Request(`http://test/api/v1${p.path}`, { method: p.method, headers, body: p.body }), {
              clientIp: `198.18.${sent % 250}.${(sent >> 8) % 250}`,
            });
            sent += 1;
            const text = await res.text();
            const what = `${p.method} ${p.path.slice(0, 120)} as ${who}${p.body !== undefined ? ` body ${p.body.slice(0, 80)}` : ""} → ${res.status} ${text.slice(0, 200)}`;
            // A 503 the operation documents (no engine here, payments not enabled) is an answer,
            // not a failure; anything else from 500 up is.
            if (res.status >= 500 && !(res.status === 503 && op.responses["503"])) failures.push(what);
            else if (res.status >= 400) {
              let body: any;
              try {
                body = JSON.parse(text);
              } catch {
                body = null;
              }
              if (typeof body?.detail !== "string" || !body.detail) failures.push(`error without {detail}: ${what}`);
            }
          }
        }
      }
    }
    console.log(`fuzz on ${kind}: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // One line per operation and status, so a failure names every place at once.
    const distinct = [...new Set(failures.map((f) => f.replace(/ as \w+.*→ (\d+).*/, " → $1")))];
    expect(distinct, `${failures.length} bad answers, e.g. ${failures[0]}`).toEqual([]);
  }, 120_000);
});
