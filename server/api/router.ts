// A small router over the Fetch API's Request and Response, so the same handler serves HTTP
// (through server/http.ts) and the web's in-process client without a network hop.
import { z } from "zod";
import { readBodyText } from "../body-limit.ts";
import { badRequest } from "../core/errors.ts";
import type { Logger } from "../logger.ts";
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

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  throw badRequest(
    r.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; "),
  );
}

/**
 * Refuses text with NUL characters anywhere in a value (keys included): PostgreSQL cannot store
 * them in text and fails the query, so they would surface as a 500 instead of a 400.
 */
function rejectNul(v: unknown, path: string): void {
  const at = (p: string) => (p ? `${p}: ` : "");
  if (typeof v === "string") {
    if (v.includes("\u0000")) throw badRequest(`${at(path)}must not contain NUL characters`);
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => rejectNul(x, path ? `${path}.${i}` : String(i)));
  } else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      rejectNul(k, path);
      rejectNul(x, path ? `${path}.${k}` : k);
    }
  }
}

export function createRouter(log: Logger) {
  const routes: Route[] = [];

  function add(method: string, path: string, handler: Handler) {
    const keys: string[] = [];
    const pattern = new RegExp(
      "^" +
        path.replace(/\/$/, "").replace(/:(\w+)/g, (_, k) => {
          keys.push(k);
          return "([^/]+)";
        }) +
        "/?$",
    );
    routes.push({ method, pattern, keys, handler });
  }

  async function handle(request: Request, info: RequestInfo, prefix = ""): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.slice(prefix.length) || "/";
    let pathMatched = false;
    for (const r of routes) {
      const m = r.pattern.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (r.method !== request.method) continue;
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
          const q = Object.fromEntries(url.searchParams);
          rejectNul(q, "");
          return parse(schema, q);
        },
      };
      try {
        const out = await r.handler(ctx);
        return out instanceof Response ? out : json(out ?? { message: "ok" });
      } catch (e) {
        return errorResponse(e, log);
      }
    }
    return pathMatched
      ? json({ detail: "Method not allowed" }, 405)
      : json({ detail: `Not found: ${path}` }, 404);
  }

  return {
    get: (p: string, h: Handler) => add("GET", p, h),
    post: (p: string, h: Handler) => add("POST", p, h),
    put: (p: string, h: Handler) => add("PUT", p, h),
    patch: (p: string, h: Handler) => add("PATCH", p, h),
    delete: (p: string, h: Handler) => add("DELETE", p, h),
    handle,
  };
}
export type Router = ReturnType<typeof createRouter>;
