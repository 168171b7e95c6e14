// The API described: an OpenAPI 3.1 document built from the operations the router registered
// (shared/contract/operations.ts), so each operation shows the zod schemas its inputs are parsed
// with and its answers checked against (z.toJSONSchema, in JSON Schema 2020-12, OpenAPI 3.1's
// dialect). Served at /api/v1/openapi.json and rendered on
// /docs/api; tests/integration/openapi.test.ts checks it against the routes.
import { z } from "zod";
import type { Access, Operation } from "#shared/contract/operation.ts";
import type { RouteEntry } from "./router.ts";

import type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiParameter } from "#shared/contract/openapi.ts";

export type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiParameter };

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

const ERROR_REF = { $ref: "#/components/schemas/Error" };

/** What a caller sees for each access level when it is not met. */
const ACCESS_ERRORS: Record<Access, Partial<Record<number, string>>> = {
  public: {},
  "optional-user": { 401: "An Authorization header was sent but its token is invalid or expired" },
  user: { 401: "Not signed in: no valid access token" },
  admin: { 401: "Not signed in: no valid access token", 403: "Signed in, but not an admin" },
  service: { 401: "Neither a valid access token nor a valid X-API-Key" },
};

const SECURITY: Record<Access, Record<string, string[]>[]> = {
  public: [],
  "optional-user": [{}, { bearer: [] }],
  user: [{ bearer: [] }],
  admin: [{ bearer: [] }],
  service: [{ bearer: [] }, { apiKey: [] }],
};

/** The schema a caller must send: zod's input side; transforms and refinements are server-side. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "input"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  return rest;
}

/** `/challenges/:id/submit` → `/challenges/{id}/submit`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

function parameters(path: string, doc: Operation): OpenApiParameter[] {
  const out: OpenApiParameter[] = [];
  for (const [, name] of path.matchAll(/:(\w+)/g)) {
    const schema = doc.params?.shape[name!] as z.ZodType | undefined;
    out.push({ name: name!, in: "path", required: true, schema: schema ? jsonSchemaOf(schema) : { type: "string" } });
  }
  if (doc.query) {
    const q = jsonSchemaOf(doc.query);
    const props = (q.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((q.required ?? []) as string[]);
    for (const [name, schema] of Object.entries(props)) out.push({ name, in: "query", required: required.has(name), schema });
  }
  return out;
}

function operation(doc: Operation): OpenApiOperation {
  const { path } = doc;
  const op: OpenApiOperation = {
    operationId: doc.name,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [...doc.tags],
    security: SECURITY[doc.access],
    parameters: parameters(path, doc),
    responses: {},
    "x-access": doc.access,
    // The least personal API token scope that may call it (absent: none may).
    ...(doc.personalToken ? { "x-personal-token-scope": doc.personalToken } : {}),
  };
  if (doc.body) {
    const schema = jsonSchemaOf(doc.body);
    op.requestBody = {
      required: Array.isArray(schema.required) && schema.required.length > 0,
      content: { "application/json": { schema } },
    };
  } else if (doc.rawBody) {
    op.requestBody = { required: true, description: doc.rawBody.description, content: { [doc.rawBody.contentType]: { schema: { type: "string" } } } };
  }
  op.responses[String(doc.status ?? 200)] = {
    description: doc.returns ?? "OK",
    content: { [doc.contentType ?? "application/json"]: { schema: doc.contentType ? { type: "string" } : jsonSchemaOf(doc.response, "output") } },
  };
  const errors: Partial<Record<number, string>> = { ...ACCESS_ERRORS[doc.access] };
  if (doc.params || doc.query || doc.body || doc.rawBody) errors[400] = "Invalid input: `detail` names the field and the rule";
  if (doc.body || doc.rawBody) errors[413] = "The body is over the size limit";
  Object.assign(errors, doc.errors);
  errors[500] = "A bug on our side; the body says only `Internal server error`";
  for (const [status, description] of Object.entries(errors)) {
    op.responses[status] = { description: description!, content: { "application/json": { schema: ERROR_REF } } };
  }
  return op;
}

/** The document for these routes. */
export function buildOpenApi(routes: readonly RouteEntry[], prefix: string): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  const tags = new Set<string>();
  for (const r of routes) {
    const p = openApiPath(r.path);
    const op = operation(r.op);
    for (const t of op.tags) tags.add(t);
    (paths[p] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "faultline API",
      version: "1",
      description:
        "The JSON API the faultline web uses. Every input is validated; a failure answers its HTTP status with " +
        '{"detail": "<what is wrong>"} (sometimes with more fields, e.g. retry_after on 429). Sign in with ' +
        "POST /auth/login and send the access token as `Authorization: Bearer <token>`.",
    },
    servers: [{ url: prefix }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        Error: {
          type: "object",
          required: ["detail"],
          properties: { detail: { type: "string", description: "What went wrong, in words meant for people" } },
          additionalProperties: true,
        },
      },
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "An access token from POST /auth/login, or a personal API token (flt_..., made in settings) on operations whose x-personal-token-scope its scope covers (read < play)",
        },
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "The services' key (GATEWAY_API_KEY); never given to browsers" },
      },
    },
  };
}
