// The API described (server/api/openapi.ts): the OpenAPI document is generated from the table of
// operations (shared/contract/operations.ts) the router registers. Every operation of the table
// must be registered exactly once and every registered route be in the table; the document must
// show every route and be valid OpenAPI 3.1 by a maintained validator (@apidevtools/swagger-parser);
// a handler answering JSON its response schema refuses is a 500 outside production.
import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperations } from "#shared/contract/operation.ts";
import { operations } from "#shared/contract/operations.ts";
import { openApiPath, type OpenApiDocument } from "#server/api/openapi.ts";
import { createRouter } from "#server/api/router.ts";
import { createLogger } from "#server/logger.ts";
import { createTestPlatform, type TestPlatform } from "../support/platform.ts";

describe("the table of operations", () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform("sqlite");
  });
  afterAll(() => t?.close());

  it("names each operation after its key, once", () => {
    for (const [key, op] of Object.entries(operations)) expect(op.name, key).toBe(key);
    const routes = Object.values(operations).map((o) => `${o.method} ${o.path}`);
    expect(
      routes.filter((k, i) => routes.indexOf(k) !== i),
      "two operations on one route",
    ).toEqual([]);
  });

  it("every operation is registered exactly once, and every registered route is in the table", () => {
    const registered = t.platform.api.routes().map((r) => r.op.name);
    const table = Object.keys(operations);
    expect(
      table.filter((n) => registered.filter((x) => x === n).length !== 1),
      "in the table but registered other than once",
    ).toEqual([]);
    expect(
      t.platform.api
        .routes()
        .filter((r) => (operations as Record<string, unknown>)[r.op.name] !== r.op)
        .map((r) => `${r.method} ${r.path}`),
      "registered but not from the table",
    ).toEqual([]);
  });
});

describe("the OpenAPI document", () => {
  let t: TestPlatform;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestPlatform("sqlite");
    doc = t.platform.api.openapi();
  });
  afterAll(() => t?.close());

  it("every registered route is in the document, and every documented operation is registered", () => {
    const registered = new Set(t.platform.api.routes().map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`));
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`)));
    expect(
      [...registered].filter((k) => !documented.has(k)),
      "registered but not documented",
    ).toEqual([]);
    expect(
      [...documented].filter((k) => !registered.has(k)),
      "documented but not registered",
    ).toEqual([]);
  });

  it("is valid OpenAPI 3.1 (swagger-parser)", async () => {
    // The validator dereferences in place: it gets a copy.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("shows the schemas the inputs are parsed with and the answers are checked against", () => {
    const register = doc.paths["/auth/register"]!.post!;
    const body = register.requestBody!.content["application/json"]!.schema as any;
    expect(body.required).toEqual(expect.arrayContaining(["username", "email", "password"]));
    expect(body.properties.password).toMatchObject({ type: "string", minLength: expect.any(Number) });
    expect(Object.keys(register.responses)).toEqual(expect.arrayContaining(["201", "400", "500"]));
    const board = doc.paths["/leaderboard"]!.get!;
    expect(board.parameters.map((p) => p.name)).toEqual(["page", "limit", "period", "search"]);
    expect(board.parameters.find((p) => p.name === "period")!.schema).toMatchObject({ enum: expect.arrayContaining(["all_time", "today"]) });
    const entries = (board.responses["200"]!.content!["application/json"]!.schema as any).properties.entries;
    expect(entries.items.properties).toMatchObject({ rank: { type: "number" }, username: { type: "string" } });
    const submit = doc.paths["/challenges/{id}/submit"]!.post!;
    expect(submit.operationId).toBe("submitAnswer");
    expect(submit.parameters[0]).toMatchObject({ name: "id", in: "path", required: true, schema: { type: "string", pattern: expect.any(String) } });
    expect(submit.security).toEqual([{ bearer: [] }]);
    const health = doc.paths["/health"]!.get!.responses["200"]!.content!["application/json"]!.schema as any;
    expect(health.required).toEqual(expect.arrayContaining(["status", "components", "deployments_running"]));
  });

  it("is served at /api/v1/openapi.json", async () => {
    const res = await t.call("GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});

describe("the router checks answers against the response schema", () => {
  const ops = defineOperations({
    good: { method: "GET", path: "/good", summary: "x", tags: ["Test"], access: "public", response: z.object({ n: z.number() }) },
    drifted: { method: "GET", path: "/drifted", summary: "x", tags: ["Test"], access: "public", response: z.object({ n: z.number() }) },
    replied: { method: "POST", path: "/replied", summary: "x", tags: ["Test"], access: "public", status: 201, response: z.object({ n: z.number() }) },
  });
  const errors: string[] = [];
  const log = { ...createLogger("silent"), error: (msg: string) => void errors.push(msg) };
  const send = (r: ReturnType<typeof createRouter>, path: string, method = "GET") =>
    r.serve(new Request(`http://t${path}`, { method }), { clientIp: "127.0.0.1" });

  it("answers a mismatch with a 500 and logs it loudly, outside production", async () => {
    const r = createRouter(log, undefined, { checkResponses: true });
    r.handle(ops.good, async () => ({ n: 1 }));
    // A handler whose data drifted from the contract (the cast stands for code the compiler
    // cannot see through, e.g. a row read from the database).
    r.handle(ops.drifted, async () => ({ n: "one" }) as unknown as { n: number });
    r.handle(ops.replied, async (c) => c.reply({ n: "two" } as unknown as { n: number }));
    expect((await send(r, "/good")).status).toBe(200);
    const res = await send(r, "/drifted");
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ detail: "Internal server error" });
    expect(errors).toEqual([expect.stringContaining("drifted answered JSON its response schema refuses")]);
    expect((await send(r, "/replied", "POST")).status).toBe(500);
  });

  it("sends the answer unchanged, with the operation's status; in production does not parse it", async () => {
    const r = createRouter(log, undefined, { checkResponses: false });
    r.handle(ops.replied, async () => ({ n: 3, extra: true }) as { n: number });
    r.handle(ops.drifted, async () => ({ n: "one" }) as unknown as { n: number });
    const res = await send(r, "/replied", "POST");
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ n: 3, extra: true });
    expect((await send(r, "/drifted")).status).toBe(200);
  });
});
