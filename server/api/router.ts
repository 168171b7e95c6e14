// A small router over the Fetch API's Request and Response, so the same handler serves HTTP
// (through server/http.ts) and the web's in-process client without a network hop.
// Each route is registered with what it takes (path parameters, query, body: the zod schemas its
// handler validates with) and what it answers; server/api/openapi.ts builds the OpenAPI
// document from that table, and tests/integration/openapi.test.ts fails for a route registered
// without it. A handler that validates with another schema than it declared is a bug: 500.
import { z } from "zod";
import { readBodyText } from "../body-limit.ts";
import { badRequest } from "../core/errors.ts";
import type { Logger } from "../logger.ts";
import { currentRequest } from "../request-context.ts";
import { errorResponse, json } from "./errors.ts";

export { errorResponse, json };

export interface RequestInfo {
  /** The caller's address, as the transport saw it (rate limits key on it). */
  clientIp: string;
}

export interface Ctx {
  request: Request;
  url: URL;
  params: Record<string, string>;
  info: RequestInfo;
  /** The JSON body, validated by the schema; a bad body becomes a 400 naming the field. */
  body<S extends z.ZodType>(schema: S): Promise<z.output<S>>;
  query<S extends z.ZodType>(schema: S): z.output<S>;
}

/** A handler returns the JSON to send (status 200), or a Response for anything else. */
export type Handler = (c: Ctx) => Promise<unknown>;

/**
 * Who may call an operation: anyone; a signed-in user (`Authorization: Bearer <access token>`);
 * anyone, answering more to a signed-in user; an admin; or a service (its own credential).
 */
export type Access = "public" | "user" | "optional-user" | "admin" | "service";

/** What a route takes and answers, as the OpenAPI document (server/api/openapi.ts) shows it. */
export interface RouteDoc {
  summary: string;
  /** The first tag groups the operation on /docs/api. */
  tags: [string, ...string[]];
  description?: string;
  access: Access;
  /** Each `:name` in the path, with the schema its handler parses it with. */
  params?: Record<string, z.ZodType>;
  /** The query string's schema (the handler's `c.query(schema)`). */
  query?: z.ZodType;
  /** The JSON body's schema (the handler's `c.body(schema)`). */
  body?: z.ZodType;
  /** A body read raw instead (a webhook whose signature covers the exact bytes). */
  rawBody?: { contentType: string; description: string };
  /** The success status (200 unless given) and what it carries. */
  status?: number;
  returns?: string;
  /** A success answer that is not JSON (e.g. `application/x-ndjson`). */
  contentType?: string;
  /** Further failures than those implied by `access` and the inputs (status → when). */
  errors?: Partial<Record<number, string>>;
}

export interface RouteEntry {
  method: string;
  /** As registered, e.g. `/challenges/:id/submit` (the API prefix left out). */
  path: string;
  /** Missing only for a route registered the old way, which the OpenAPI check refuses. */
  doc?: RouteDoc;
}

interface Route extends RouteEntry {
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  throw badRequest(r.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; "));
}

/** No input of ours nests deeper; a deeper one (found by tests/integration/fuzz.test.ts: 20,000
 *  levels overflowed the stack of every walk over it) is refused before anything reads it. */
export const MAX_INPUT_DEPTH = 32;

/**
 * Refuses text with NUL characters anywhere in a value (keys included): PostgreSQL cannot store
 * them in text and fails the query, so they would surface as a 500 instead of a 400. And values
 * nested deeper than MAX_INPUT_DEPTH.
 */
function rejectNul(v: unknown, path: string, depth = 0): void {
  const at = (p: string) => (p ? `${p}: ` : "");
  if (depth > MAX_INPUT_DEPTH) throw badRequest(`The input is nested too deeply (at most ${MAX_INPUT_DEPTH} levels)`);
  if (typeof v === "string") {
    if (v.includes("\u0000")) throw badRequest(`${at(path)}must not contain NUL characters`);
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => rejectNul(x, path ? `${path}.${i}` : String(i), depth + 1));
  } else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      rejectNul(k, path, depth + 1);
      rejectNul(x, path ? `${path}.${k}` : k, depth + 1);
    }
  }
}

/** A route validating with a schema it did not declare: the document would lie about it. */
function undeclared(r: RouteEntry, what: "body" | "query"): Error {
  return new Error(`${r.method} ${r.path} validates a ${what} schema its registration does not declare (server/api/router.ts, RouteDoc.${what})`);
}

/** Refuses a caller the operation's `access` does not admit (401 without a valid credential, 403
 *  without the role), before its inputs are read or its handler runs. */
export type AccessGuard = (access: Access, c: Ctx) => Promise<void>;

export function createRouter(log: Logger, guard?: AccessGuard) {
  const routes: Route[] = [];

  function add(method: string, path: string, docOrHandler: RouteDoc | Handler, maybeHandler?: Handler) {
    const doc = typeof docOrHandler === "function" ? undefined : docOrHandler;
    const handler = typeof docOrHandler === "function" ? docOrHandler : maybeHandler;
    if (!handler) throw new Error(`${method} ${path}: no handler`);
    const keys: string[] = [];
    const pattern = new RegExp(
      "^" +
        path.replace(/\/$/, "").replace(/:(\w+)/g, (_, k) => {
          keys.push(k);
          return "([^/]+)";
        }) +
        "/?$",
    );
    routes.push({ method, path, doc, pattern, keys, handler });
  }

  /** One debug line per API request, in the request's context (so with its id). */
  async function handle(request: Request, info: RequestInfo, prefix = ""): Promise<Response> {
    const t0 = performance.now();
    const res = await dispatch(request, info, prefix);
    const route = currentRequest()?.route;
    log.debug(`api ${request.method} ${route ?? "(no route)"} ${res.status}`, {
      method: request.method,
      route: route ?? null,
      status: res.status,
      ms: Math.round(performance.now() - t0),
    });
    return res;
  }

  async function dispatch(request: Request, info: RequestInfo, prefix: string): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.slice(prefix.length) || "/";
    let pathMatched = false;
    for (const r of routes) {
      const m = r.pattern.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (r.method !== request.method) continue;
      // The pattern, not the URL, labels the request's metrics (bounded cardinality).
      const ctxOfRequest = currentRequest();
      if (ctxOfRequest) ctxOfRequest.route = prefix + r.path;
      let params: Record<string, string>;
      try {
        params = Object.fromEntries(r.keys.map((k, i) => [k, decodeURIComponent(m[i + 1]!)]));
        for (const [k, v] of Object.entries(params)) rejectNul(v, k);
      } catch (e) {
        return errorResponse(e instanceof URIError ? badRequest("Malformed percent-encoding in the path") : e, log);
      }
      const ctx: Ctx = {
        request,
        url,
        params,
        info,
        async body(schema) {
          if (r.doc && r.doc.body !== schema) throw undeclared(r, "body");
          let data: unknown = {};
          const text = await readBodyText(request);
          if (text.trim()) {
            try {
              data = JSON.parse(text);
            } catch {
              throw badRequest("The request body must be JSON");
            }
            rejectNul(data, "");
          }
          return parse(schema, data);
        },
        query: (schema) => {
          if (r.doc && r.doc.query !== schema) throw undeclared(r, "query");
          const q = Object.fromEntries(url.searchParams);
          rejectNul(q, "");
          return parse(schema, q);
        },
      };
      try {
        // Access is the table's to enforce, not each handler's to remember (an undocumented
        // route has none, and the OpenAPI check refuses it).
        if (guard && r.doc) await guard(r.doc.access, ctx);
        const out = await r.handler(ctx);
        return out instanceof Response ? out : json(out ?? { message: "ok" });
      } catch (e) {
        return errorResponse(e, log);
      }
    }
    return pathMatched ? json({ detail: "Method not allowed" }, 405) : json({ detail: `Not found: ${path}` }, 404);
  }

  /** `r.get(path, doc, handler)`; `r.get(path, handler)` still registers, undocumented. */
  type Register = {
    (path: string, doc: RouteDoc, handler: Handler): void;
    /** @deprecated Give the route's RouteDoc: the OpenAPI check refuses undocumented routes. */
    (path: string, handler: Handler): void;
  };
  const method =
    (m: string): Register =>
    (p: string, a: RouteDoc | Handler, b?: Handler) =>
      add(m, p, a, b);

  return {
    get: method("GET"),
    post: method("POST"),
    put: method("PUT"),
    patch: method("PATCH"),
    delete: method("DELETE"),
    handle,
    /** Every registered route, in matching order (the OpenAPI document and its check read it). */
    routes: (): readonly RouteEntry[] => routes.map(({ method, path, doc }) => ({ method, path, doc })),
  };
}
export type Router = ReturnType<typeof createRouter>;
