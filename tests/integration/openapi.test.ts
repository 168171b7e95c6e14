// The API described (server/api/openapi.ts): the OpenAPI document is built from the router's own
// table, so this check iterates that table. Every registered route must carry its RouteDoc and
// appear in the document, every documented operation must be registered, and the document must
// be structurally valid OpenAPI 3.1 (required fields, path templates, references).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApi, HTTP_METHODS, openApiPath, type OpenApiDocument } from "../../server/api/openapi.ts";
import { createRouter, type RouteEntry } from "../../server/api/router.ts";
import { createLogger } from "../../server/logger.ts";
import { createTestPlatform, type TestPlatform } from "../support/platform.ts";

/** Routes registered without a RouteDoc, each named so its author knows what to fix. */
function undocumented(routes: readonly RouteEntry[]): string[] {
  return routes
    .filter((r) => !r.doc)
    .map(
      (r) =>
        `${r.method} ${r.path} is registered without a RouteDoc: register it as r.${r.method.toLowerCase()}("${r.path}", { summary, tags, access, params?, query?, body? }, handler) (server/api/router.ts)`,
    );
}

/** Problems that make `doc` invalid OpenAPI 3.1 (the fields and rules this document uses). */
function structuralProblems(doc: OpenApiDocument): string[] {
  const out: string[] = [];
  const d = doc as unknown as Record<string, any>;
  if (!/^3\.1\.\d+$/.test(d.openapi ?? "")) out.push(`openapi must be 3.1.x, is ${d.openapi}`);
  if (typeof d.info?.title !== "string" || !d.info.title) out.push("info.title is required");
  if (typeof d.info?.version !== "string" || !d.info.version) out.push("info.version is required");
  if (!d.paths || typeof d.paths !== "object") out.push("paths must be an object");
  const tagNames = new Set((d.tags ?? []).map((t: { name: string }) => t.name));
  const schemes = new Set(Object.keys(d.components?.securitySchemes ?? {}));
  const ids = new Set<string>();
  const resolve = (ref: string) =>
    ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<any>((o, k) => o?.[k], d);
  (function refs(v: unknown, at: string) {
    if (Array.isArray(v)) v.forEach((x, i) => refs(x, `${at}/${i}`));
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "$ref" && (typeof x !== "string" || resolve(x) === undefined)) out.push(`${at}: unresolved $ref ${String(x)}`);
        else refs(x, `${at}/${k}`);
      }
    }
  })(d, "#");
  for (const [path, item] of Object.entries<Record<string, any>>(d.paths ?? {})) {
    if (!path.startsWith("/")) out.push(`path ${path} must start with /`);
    const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries<any>(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!(HTTP_METHODS as readonly string[]).includes(method)) out.push(`${where}: not an HTTP method`);
      if (typeof op.operationId !== "string" || ids.has(op.operationId)) out.push(`${where}: operationId missing or not unique`);
      ids.add(op.operationId);
      if (typeof op.summary !== "string" || !op.summary) out.push(`${where}: summary missing`);
      if (!op.responses || !Object.keys(op.responses).length) out.push(`${where}: responses must not be empty`);
      for (const [status, r] of Object.entries<any>(op.responses ?? {})) {
        if (!/^[1-5]\d\d$|^default$/.test(status)) out.push(`${where}: response key ${status}`);
        if (typeof r.description !== "string" || !r.description) out.push(`${where} ${status}: description is required`);
      }
      if (!Object.keys(op.responses ?? {}).some((s) => s.startsWith("2"))) out.push(`${where}: no success response`);
      const params: any[] = op.parameters ?? [];
      const seen = new Set<string>();
      for (const p of params) {
        if (!p.name || !["path", "query", "header", "cookie"].includes(p.in)) out.push(`${where}: parameter needs name and in`);
        if (seen.has(`${p.in}:${p.name}`)) out.push(`${where}: parameter ${p.name} twice`);
        seen.add(`${p.in}:${p.name}`);
        if (p.in === "path" && p.required !== true) out.push(`${where}: path parameter ${p.name} must be required`);
        if (!p.schema || typeof p.schema !== "object") out.push(`${where}: parameter ${p.name} needs a schema`);
      }
      const pathParams = params
        .filter((p) => p.in === "path")
        .map((p) => p.name)
        .sort();
      if (JSON.stringify(pathParams) !== JSON.stringify([...templated].sort())) {
        out.push(`${where}: path parameters ${pathParams} do not match the template's ${templated}`);
      }
      if (op.requestBody && !Object.keys(op.requestBody.content ?? {}).length) out.push(`${where}: requestBody needs content`);
      for (const t of op.tags ?? []) if (!tagNames.has(t)) out.push(`${where}: tag ${t} is not declared`);
      for (const req of op.security ?? []) for (const name of Object.keys(req)) if (!schemes.has(name)) out.push(`${where}: unknown security scheme ${name}`);
    }
  }
  return out;
}

describe("the OpenAPI document", () => {
  let t: TestPlatform;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestPlatform("sqlite");
    doc = t.platform.api.openapi();
  });
  afterAll(() => t?.close());

  it("every registered route carries its RouteDoc", () => {
    expect(undocumented(t.platform.api.routes())).toEqual([]);
  });

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

  it("is structurally valid OpenAPI 3.1", () => {
    expect(structuralProblems(doc)).toEqual([]);
  });

  it("shows the schemas the handlers validate with", () => {
    const register = doc.paths["/auth/register"]!.post!;
    const body = register.requestBody!.content["application/json"]!.schema as any;
    expect(body.required).toEqual(expect.arrayContaining(["username", "email", "password"]));
    expect(body.properties.password).toMatchObject({ type: "string", minLength: expect.any(Number) });
    expect(Object.keys(register.responses)).toEqual(expect.arrayContaining(["201", "400", "500"]));
    const board = doc.paths["/leaderboard"]!.get!;
    expect(board.parameters.map((p) => p.name)).toEqual(["page", "limit", "period", "search"]);
    expect(board.parameters.find((p) => p.name === "period")!.schema).toMatchObject({ enum: expect.arrayContaining(["all_time", "today"]) });
    const submit = doc.paths["/challenges/{id}/submit"]!.post!;
    expect(submit.parameters[0]).toMatchObject({ name: "id", in: "path", required: true, schema: { type: "string", pattern: expect.any(String) } });
    expect(submit.security).toEqual([{ bearer: [] }]);
  });

  it("is served at /api/v1/openapi.json", async () => {
    const res = await t.call("GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it("names a route registered without metadata", () => {
    const r = createRouter(createLogger("silent"));
    r.get("/documented", { summary: "A documented route", tags: ["Test"], access: "public" }, async () => ({}));
    r.post("/forgot-to-document", async () => ({}));
    expect(undocumented(r.routes())).toEqual([expect.stringContaining("POST /forgot-to-document is registered without a RouteDoc")]);
    expect(Object.keys(buildOpenApi(r.routes(), "/api/v1").paths)).toEqual(["/documented"]);
  });

  it("answers 500 when a handler validates a body it did not declare (the document would lie)", async () => {
    const r = createRouter(createLogger("silent"));
    const { z } = await import("zod");
    const declared = z.object({ a: z.string() });
    r.post("/x", { summary: "x", tags: ["Test"], access: "public", body: declared }, async (c) => c.body(z.object({ b: z.string() })));
    const res = await r.handle(new Request("http://t/x", { method: "POST", body: "{}" }), { clientIp: "127.0.0.1" });
    expect(res.status).toBe(500);
  });
});
